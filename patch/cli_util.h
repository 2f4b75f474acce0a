/* Helpers shared by the command-line tool: files, atomic writes, directory walks, reports. */
#ifndef RB_CLI_UTIL_H
#define RB_CLI_UTIL_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../core/doc.h"
#include "../core/json.h"

/* Exit codes (documented in docs/rebyte.1 and the README). */
enum {
    EXIT_OK = 0,
    EXIT_DIFFERS = 1,    /* verify found a difference; apply's result did not verify; a test op failed */
    EXIT_BAD_INPUT = 2,  /* an input could not be parsed or a patch could not be applied */
    EXIT_IO = 3,         /* a file could not be read or written */
    EXIT_USAGE = 64
};

/* Whole file into memory ("-" = stdin). Returns 0 on success, else prints why. */
int cli_read_file(const char *path, uint8_t **data, size_t *size);
/* Write to a temporary file beside `path`, fsync, rename into place ("-" = stdout).
 * Nothing is left behind on failure. */
int cli_write_atomic(const char *path, const uint8_t *data, size_t size);

/* Calls fn for every regular file under each path (directories recursively, sorted). */
typedef int (*cli_file_fn)(const char *path, void *ctx);
int cli_collect_files(char **paths, int count, char ***files, size_t *file_count);
void cli_free_files(char **files, size_t count);

void cli_print_error(const rb_error *err);
/* Parse a file's bytes; prints the error. */
rb_doc *cli_parse(const char *name, const uint8_t *data, size_t size, rb_error *err);

/* The model as JSON with the $format/$source annotations `build` needs. */
json_t *cli_doc_json(const rb_doc *doc, const char *source_path, const uint8_t *source, size_t source_size,
                     rb_blob_mode blobs);
int cli_print_json(const json_t *json, const char *out_path);

/* Progress on a terminal for batches. */
void cli_progress(size_t done, size_t total, const char *name);
void cli_progress_clear(void);

/* Parse --name=value / --name value options. */
int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **value);
#endif
