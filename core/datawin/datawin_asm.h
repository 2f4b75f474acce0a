/*
 * The code listing of a data.win code entry, both ways (docs/formats/datawin.md "Code listings"):
 * datawin_listing.c writes it from the model, datawin_asm.c reads it back into the model's
 * bytecode, string operands, references and child entry offsets. What both sides share is here:
 * the instruction set (bytecode 15 and later, docs/formats/datawin.md "Bytecode instructions"),
 * the words of the text format, and how a name in the text finds its VARI or FUNC entry.
 */
#ifndef RB_DATAWIN_ASM_H
#define RB_DATAWIN_ASM_H
#include <stddef.h>
#include <stdint.h>
#include "core/model/doc_state.h"

enum {
    DW_TYPE_DOUBLE = 0, DW_TYPE_FLOAT = 1, DW_TYPE_INT32 = 2, DW_TYPE_INT64 = 3, DW_TYPE_BOOL = 4,
    DW_TYPE_VARIABLE = 5, DW_TYPE_STRING = 6, DW_TYPE_INT16 = 15
};
enum {
    DW_OP_NEG = 0x11, DW_OP_NOT = 0x12, DW_OP_CMP = 0x15, DW_OP_POP = 0x45, DW_OP_PUSHI = 0x84, DW_OP_DUP = 0x86,
    DW_OP_CALLV = 0x99, DW_OP_B = 0xB6, DW_OP_BT = 0xB7, DW_OP_BF = 0xB8, DW_OP_PUSHENV = 0xBA, DW_OP_POPENV = 0xBB,
    DW_OP_PUSH = 0xC0, DW_OP_PUSHBLTN = 0xC3, DW_OP_CALL = 0xD9, DW_OP_BREAK = 0xFF
};

/* How an instruction's first word and operand read (the classes of docs/formats/datawin.md
 * "Code listings"). */
typedef enum {
    DW_CLASS_NONE,    /* not an instruction */
    DW_CLASS_TWO,     /* conv and arithmetic: two types, nothing else */
    DW_CLASS_ONE,     /* neg, not, ret, exit, popz: one type */
    DW_CLASS_COUNTED, /* dup, callv: one type and a 16-bit number */
    DW_CLASS_CMP,     /* cmp: two types and a comparison */
    DW_CLASS_BRANCH,  /* b, bt, bf, pushenv, popenv: a 23-bit distance */
    DW_CLASS_PUSH,    /* push, pushloc, pushglb, pushbltn, pushi: a value by its type */
    DW_CLASS_POP,     /* pop: a variable, or (int16) a swap count */
    DW_CLASS_CALL,    /* call: a function and an argument count */
    DW_CLASS_BREAK    /* break: a 16-bit kind, an int32 operand when typed so */
} dw_class;

dw_class datawin_op_class(unsigned opcode);
/* Operand words after instruction word `word`, or -1 when it is not an instruction. */
int datawin_operand_words(uint32_t word);
/* Whether the operand of `word` may be an occurrence in a VARI/FUNC chain. */
int datawin_operand_may_be_reference(uint32_t word);
int datawin_is_push(unsigned opcode);

/* The words of the text. */
const char *datawin_op_mnemonic(unsigned opcode);          /* NULL: none */
int datawin_op_from_mnemonic(const char *text, size_t n);   /* -1: none */
char datawin_type_letter(unsigned type);                    /* 0: no letter (written as a number) */
int datawin_type_from_letter(char c);                       /* -1: none */
const char *datawin_instance_name(int instance);            /* NULL: written as a number */
int datawin_instance_from_name(const char *text, size_t n, int *instance);
const char *datawin_reference_type_name(unsigned high_byte); /* NULL: written as [0xNN] */
int datawin_reference_type_from_name(const char *text, size_t n); /* -1: none */
const char *datawin_comparison_name(unsigned kind);          /* NULL: written as a number */
int datawin_comparison_from_name(const char *text, size_t n);
const char *datawin_break_name(int kind);                   /* NULL: written as break N */
int datawin_break_from_name(const char *text, size_t n);    /* 0: none (kinds are negative) */

/* A bare name needs no quotes: letters, digits, '_', '@', '$'. */
int datawin_name_is_bare(const uint8_t *text, size_t n);

/* The VARI variables or FUNC functions of a document, looked up by name. */
typedef struct dw_name {
    const uint8_t *text;
    size_t size;
    int named;        /* 0: the entry has no name */
    int64_t instance; /* VARI's instanceType (INT64_MIN: none) */
    uint32_t index;
} dw_name;
typedef struct dw_names {
    dw_name *by_index, *by_name;
    size_t count;
} dw_names;

/* `list`: VARI "variables" or FUNC "functions" (NULL: none). -1: out of memory. */
int datawin_names_open(dw_names *names, const rb_node *list);
void datawin_names_close(dw_names *names);
const dw_name *datawin_names_get(const dw_names *names, uint64_t index); /* NULL: none or unnamed */

/* Within one listing, a name written with #index stands for that entry until the end of the
 * listing (for the same instance): only its first use needs the index. */
typedef struct dw_pin { int kind, instance; uint32_t index; } dw_pin;
typedef struct dw_pins { dw_pin *items; size_t count, cap; } dw_pins;
/* The entry `name` stands for: a pin of the name and instance; else the only entry of that name,
 * else the only one of that name whose instance type is `instance` (variables; functions pass
 * INT32_MIN). -1: none, -2: several. */
long datawin_pins_resolve(const dw_pins *pins, const dw_names *names, int kind, const uint8_t *name, size_t n, int instance);
/* -1: out of memory. */
int datawin_pins_add(dw_pins *pins, int kind, uint32_t index, int instance);
void datawin_pins_free(dw_pins *pins);

/* Element `index` of a list or a table, a packed record seen as a record (in `scratch`); NULL past
 * the end. */
const rb_node *datawin_element_view(const rb_node *list, size_t index, rb_record_scratch *scratch);
/* The chunk of `doc` with this id, and its index (-1: none). */
const rb_node *datawin_doc_chunk(const rb_doc *doc, const char *id, long *index);
#endif
