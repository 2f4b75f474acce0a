/* rebyte: the command-line tool. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_guard.h"
#include "patch/cli/cli_util.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
    const char *help;
} command;

static int cmd_formats(int argc, char **argv);

static const command COMMANDS[] = {
    {"info", cmd_info, "rebyte info FILE [--json]",
     "What FILE is: format, version, class id, sizes, compression, chunk list, coverage.\n"
     "  --json   one JSON object instead of text"},
    {"verify", cmd_verify, "rebyte verify [--reencode] [--json] [-q] [-j N] PATH...",
     "Read -> model -> write -> compare, for each file (directories recursively; - is stdin).\n"
     "Prints one line per file and a summary; the first difference is located by offset and\n"
     "structure path. Deviations the reader kept so the file comes back exactly (a stale\n"
     "checksum, ...) are listed under the file as notes (\"notes\" in --json). Every byte is\n"
     "compared: a GBX unit nothing else reads (a body chunk, a map's blocks and items) is kept\n"
     "as its bytes, not as nodes, only once its nodes are written and give exactly those bytes;\n"
     "one that would be written otherwise stays nodes, so the difference is located like any\n"
     "other (the deferred model, docs/performance.md).\n"
     "  --reencode  re-encode every compressed stream instead of passing the original through;\n"
     "              then 'exact' means identical decoded content and identical bytes around it;\n"
     "              --reencode=lzo1x (or zlib) re-encodes only the streams of that codec\n"
     "  --json      JSON Lines: one object per file, then a summary object\n"
     "  -q          print only files that are not exact or have notes (deviations kept), and the summary\n"
     "  -j N        check N files at once (default, and 0: the number of CPUs), the largest first;\n"
     "              output stays in order\n"
     "Exit: 0 every file exact, 1 some differ, 2 some could not be parsed or a folder holds no file\n"
     "of a known format, 3 a path does not exist or cannot be read (each named on stderr, counted\n"
     "in the summary)"},
    {"rewrite", cmd_rewrite, "rebyte rewrite FILE -o OUT [--reencode]",
     "Read FILE into the model and write it to OUT (atomically). Without changes OUT equals\n"
     "FILE byte for byte. The file is read with the deferred model (every value checked, GBX\n"
     "body chunks, a map's blocks and items, a GROFF file's sections, data.win chunks kept as\n"
     "their bytes): less memory, a faster write.\n"
     "  --reencode  re-encode compressed streams from the model"},
    {"dump", cmd_dump, "rebyte dump FILE [-o OUT.json] [--blobs=ref|base64|files|omit]",
     "The model as JSON (keys in file order, stable formatting), printed while the model is walked:\n"
     "memory stays that of the model, however large the JSON. The file is read with the deferred\n"
     "model (as `rewrite`): each unit kept as its bytes is read again alone as it is printed.\n"
     "  --blobs=ref     blobs as references into FILE (default; `build` needs FILE then)\n"
     "  --blobs=base64  blobs inline: the dump stands alone\n"
     "  --blobs=files   every blob a file in OUT.files/ beside OUT.json ({\"$file\": ...}; needs -o):\n"
     "                  edit the files, `build OUT.json` without the original\n"
     "  --blobs=omit    sizes only (for reading; cannot be built)"},
    {"build", cmd_build, "rebyte build IN.json -o OUT [--source ORIGINAL] [--new-recording]",
     "Write a file from a JSON model (as `dump` makes it), validating every value against the\n"
     "format's description. IN.json is read piecewise where it is (a list's elements decoded as\n"
     "they are reached), and each unit (a body chunk, a long list) is written as soon as it is\n"
     "built and kept as bytes: memory stays a few units of the model; `-` reads stdin whole\n"
     "first and builds the whole model. ORIGINAL is read for its bytes only (deferred).\n"
     "Blob references resolve against ORIGINAL, or the file named in the\n"
     "dump's \"$source\". A ghost or a replay is written only when its records equal ORIGINAL's\n"
     "(docs/usage.md \"Race recordings\"): a changed one is refused, nothing written.\n"
     "  --source ORIGINAL  the file the JSON was dumped from\n"
     "  --new-recording    a ghost or replay authored as a test fixture, with no original\n"
     "                     (--new-record, its first spelling, is still taken)\n"
     "Exit: 0 written, 2 bad input or a changed race recording, 3 I/O error"},
    {"apply", cmd_apply,
     "rebyte apply [--patch PATCH.json]... [PATCH.json [MORE.json...]] FILE... (-o OUT | -o DIR/ | --in-place [--backup]) [--dry-run] [--force] [-j N] [--conflicts=stop|first-wins|last-wins]",
     "Apply RFC 6902 patches (in order, all or nothing) to the model of each FILE, write, re-read\n"
     "what was written and check it is the patched model. Paths are those of `rebyte dump`. On any\n"
     "error nothing is written and the input is untouched.\n"
     "  --patch FILE  a patch (repeatable; at most 64 MiB, REBYTE_LIMITS=max_patch_size=N); without\n"
     "                it the leading arguments are the patches (the first, then every further\n"
     "                .json): use it when an input ends in .json\n"
     "  -o OUT        output file (one input)\n"
     "  -o DIR/       an existing folder (the '/' optional): each result under its own name, a file\n"
     "                found under a named folder under its path below it (subfolders made); the\n"
     "                inputs are untouched. Two inputs for one name, or a result that would replace\n"
     "                its input, are refused before anything is written (exit 64)\n"
     "  --in-place    replace each input (after verification); the input is read under a lock held\n"
     "                until it is replaced: another in-place edit of it waits (REBYTE_LOCK_WAIT\n"
     "                seconds, default 60), one that changed it meanwhile is refused (exit 3)\n"
     "  --backup      keep the original as FILE.bak; an existing FILE.bak is left as it is (it\n"
     "                holds an older original): the first original is never overwritten\n"
     "  --dry-run     print what would change, write nothing\n"
     "  -j N          patch N files at a time (folders and several files; 0: one per CPU)\n"
     "  -q            only problems and the summary\n"
     "  --conflicts   when stacked patches change the same value: stop (default), first-wins, last-wins\n"
     "  --force       write even when the result breaks a game rule (`rebyte check --rules`) the\n"
     "                original kept, or apply a diff to a file that is not its base; each broken\n"
     "                rule and each pin that fails is still reported\n"
     "What no node of the model has the shape of (a new member, the first element of an empty\n"
     "list, a version change, a \"$stream\" annotation, the whole document) is built by the format's\n"
     "description on the smallest draft around it (a GBX chunk, else the document): it checks every\n"
     "type, range and version, and a refusal names the operation and the path.\n"
     "Paths may hold identity selectors ([key=value], see `rebyte resolve`). An operation with\n"
     "\"each\": true is carried out for every element its selectors match (none included; the\n"
     "report says how many), and [*] matches every element of a list; \"op\": \"offset\" adds its\n"
     "value to a number or, element by element, to a list of numbers (a block's coord, an item's\n"
     "position), in the field's type; \"count\": N refuses another number of matches; an add, copy\n"
     "or move with \"as\": \"NAME\" lets later operations start their path with @NAME (docs/usage.md\n"
     "\"One patch, every element\"; samples/gbx/cookbook has mods for any map). A patch made by\n"
     "`rebyte diff` carries its base's digest: on another base, every value it pins is checked\n"
     "and each one that differs is named; a diff by position (the default) is refused there, a\n"
     "diff by identity applies when all of them hold. A batch ends with a\n"
     "line for each file that was not patched, saying why. Folders are scanned for regular files,\n"
     "skipping backups (*.bak) and temporary files (*.rebyte-XXXXXX). Every report line names its\n"
     "file; \"N changes\" counts the values that changed (a replace by the same value is none).\n"
     "Exit: 0 patched, 1 the result did not verify, 2 bad input or the patch does not apply,\n"
     "3 a file could not be read or written"},
    {"check", cmd_check, "rebyte check [--json] [-q] FILE|DIR... | rebyte check --rules [--json]",
     "Game rules: what the game relies on that the byte format does not enforce, found before the\n"
     "game finds them (\"Couldn't load map!\"). Each format declares its own: for maps a block's\n"
     "direction is 0-3 and it lies inside the map, race medals are in order, the decoration is one\n"
     "real maps of the environment use, the header's copies agree with the body. A rule is a\n"
     "refusal or a warning (what no real file was seen doing; the game may still load it). Each\n"
     "violation is a line FILE: RULE: PATH: why (RULE (warning) for a warning). Folders are walked\n"
     "like verify does. `rebyte apply` refuses a result that breaks a refusal rule the original\n"
     "kept, and prints warnings.\n"
     "  --json    one JSON object per file: file, format, status (ok, warnings, broken, error),\n"
     "            violations [{rule, kind, path, message}]\n"
     "  -q        print only the violations\n"
     "  --rules   list every format's rules: kind (refusal, warning), description and the lists\n"
     "            each checks against (decorations per environment, references, ...)\n"
     "Exit 0 when every file is ok or only warned, 1 when a refusal rule is broken, 2 or 3 when a\n"
     "file cannot be parsed or read, 2 when a folder holds no file of a known format"},
    {"resolve", cmd_resolve, "rebyte resolve PATCH.json FILE",
     "Print what PATCH does to FILE as plain RFC 6902: apply's engine runs it on FILE's model and\n"
     "prints each operation it carries out, with plain RFC 6901 pointers. A selector token\n"
     "\"[key=value]\" picks the one array element whose member `key` (a relative pointer) equals\n"
     "value, e.g. /body/chunks/[id=0x0304301F]/mapName; several conditions are separated by\n"
     "commas. An operation with \"each\": true (or [*]) becomes one operation per match, in the order\n"
     "apply carries them out; \"offset\" becomes \"replace\" with the computed value; a path from a\n"
     "name (@NAME, given by \"as\") becomes the element's index path. See docs/usage.md."},
    {"diff", cmd_diff, "rebyte diff [--by-identity] [--plain] A B",
     "The structural difference of two files of one format and class, as an RFC 6902 patch that\n"
     "turns A's model into B's, in the envelope that carries A's digest, with a test before each\n"
     "operation that pins what it touches: the value replaced, the element removed, copied or\n"
     "moved, the element an addition goes before (a large one by a digest of its content).\n"
     "Such a patch is safe to share: by default it addresses elements by position and applies to\n"
     "A only (`rebyte apply` refuses another file and names each pin that fails there).\n"
     "Exit 0 when equal, 1 when they differ, 2 for files of two formats or classes (a map and a\n"
     "replay). List elements are matched (by their natural keys, else by content), so one\n"
     "removed, inserted or moved element is one operation, a copy of an element is one copy of\n"
     "its first equal (equal elements match by their order among equals), and an element changed\n"
     "in place is addressed where it is. What apply derives is left out: the lists a map keeps\n"
     "beside its blocks and items, renumbered indexes, symbol tables, the strings and names a\n"
     "writer appends to its tables (a rename is one operation), sizes, counts, checksums,\n"
     "header copies. An edited picture (a data.win sprite frame) is that picture as a PNG,\n"
     "{\"$png\": base64}, not its texture page. apply(diff(A, B), A) gives B's bytes. Numbers\n"
     "are spelled as `rebyte dump` shows them.\n"
     "  --plain        the bare RFC 6902 array: no envelope, no pins (with --by-identity, the\n"
     "                 replaced values stay pinned)\n"
     "  --by-identity  address list elements by their natural keys (a chunk by id, a block by name\n"
     "                 and coordinates, an item by model and position, a name, a string): the\n"
     "                 patch applies to another base (another save of the map, a base that\n"
     "                 changed elsewhere) where every value it pins holds. It is proven on A before\n"
     "                 printing (where a name would not resolve, the list is addressed by index)."},
    {"downgrade-items", cmd_downgrade_items,
     "rebyte downgrade-items MAP... (-o OUT | --in-place) [--to 4] [--items-version N] [--dry-run] [--print-patch]",
     "Rewrite a TM2020 map's items chunk (0x03043040, versions 5-7) at version 4 (or --to 0..4),\n"
     "so item lists can be edited without breaking snapping data. Anchored objects are kept in\n"
     "order; the items-on-item pairs are kept (versions 6, 7) or written empty (version 5); the\n"
     "snapping arrays are dropped; every other chunk stays byte-identical. The result is\n"
     "validated, written, re-read and verified. A map already at the target is left unchanged.\n"
     "  --items-version N  also rewrite each anchored object (0x03101002) down to version N\n"
     "                     (8 -> 7 drops two TM2020 vectors, 7 -> 6 the skin, 6 -> 5 the scale,\n"
     "                     5 -> 4 the pivot)\n"
     "  --dry-run          report what would be lost, write nothing\n"
     "  --print-patch      print the change as an RFC 6902 patch (usable with `rebyte apply`) on\n"
     "                     stdout, alone; without -o or --in-place nothing is written\n"
     "Reports go to stderr: with -o - stdout holds the map's bytes alone."},
    {"convert", cmd_convert, "rebyte convert --to text|binary FILE -o OUT [--source ORIGINAL] [--no-check]",
     "Convert a GBX file between its binary form and its text form (format byte 'T': one value\n"
     "per CR LF line, ids and chunk ids in hex; docs/formats/gbx_text.md). The text form keeps\n"
     "what restores the binary file byte for byte (the original compressed streams), so\n"
     "binary -> text -> binary gives the same bytes; text files diff line by line.\n"
     "  --to text|binary  the form to write (a replay's embedded map is converted too)\n"
     "  --source ORIGINAL the binary file a text ghost or replay came from: its binary form is\n"
     "                    written only with it, and only when the records are unchanged\n"
     "                    (docs/usage.md \"Race recordings\")\n"
     "  --no-check        do not convert the result back to prove it restores the input\n"
     "Exit: 0 converted, 1 the result would not convert back exactly (nothing written), 2 bad input\n"
     "or a changed race recording"},
    {"extract", cmd_extract, "rebyte extract FILE -o DIR|- [--only KIND] [--with FILE2] [--force] [-q]",
     "Every asset of FILE as a file a person can open, in DIR (a folder per kind): pictures as\n"
     "PNG or JPEG (map thumbnails the right way up), sounds as WAV, embedded files as they were\n"
     "(a replay's map as .Map.Gbx, a map's items as .Item.Gbx), tables as CSV (ghost samples,\n"
     "streamer objects), a data.win's code as listings (.txt: labels, names). DIR/manifest.json maps each file to its model path, kind, size, whether\n"
     "`replace` takes it back, and how it was made; files the document names but does not hold\n"
     "(a map's custom music) are listed under \"references\". A progress line on a terminal,\n"
     "then a summary (files, bytes).\n"
     "  --only KIND  only assets of this kind: image, sound, mesh, gbx, table, code, blob\n"
     "  --with FILE2 the other file of a pair whose assets are split: a Trespasser .pid's\n"
     "               .spz or .swp (its textures), an .spz's .pid (their layout), a .tpa's\n"
     "               level .grf (the names its sounds are stored under: body-NNNN-NAME.wav)\n"
     "  -o DIR       a new or empty folder (made as its files are written; a failed run removes\n"
     "               what it made); a folder that is not empty is refused\n"
     "  -o -         one tar stream (ustar) on stdout instead: | tar -x, | tar -t\n"
     "  --force      write into a folder that is not empty, replacing files of the same names\n"
     "  -q           no progress line and no summary\n"
     "Exit: 0 extracted, 2 bad input or a format without assets, 3 a file could not be written\n"
     "or the folder is not empty"},
    {"replace", cmd_replace,
     "rebyte replace FILE PATH ASSET (-o OUT | --in-place [--backup] | --dry-run) [--with FILE2] [--force] [-q]",
     "Put ASSET (a file as `extract` made it, edited or not) back into FILE at model PATH (the\n"
     "manifest's \"path\"), converted to the stored form (a PNG quantised to a texture's palette,\n"
     "a map thumbnail from any JPEG or PNG of its size, stored upside down, a data.win code\n"
     "listing assembled: offsets, chains and counts follow the edit), then write, re-read\n"
     "and verify like `apply`. An unchanged asset gives FILE byte for byte. A patch does the\n"
     "same with a value {\"$file\": F} at an asset's path (F relative to the patch's folder).\n"
     "The report (\"N changes\": 0 when the output is FILE's bytes) goes to stderr. Inside a\n"
     "ghost or a replay nothing is put back.\n"
     "  -o OUT        output file (- for stdout)\n"
     "  --in-place    replace FILE (after verification, under a lock, as apply); --backup keeps the\n"
     "                original as FILE.bak\n"
     "  --dry-run     apply and verify, write nothing; print each change with the value it\n"
     "                replaces (stdout)\n"
     "  --with FILE2  the other file of a pair (a Trespasser .spz's .pid), as for extract\n"
     "  --force       write even when the result breaks a game rule the original kept\n"
     "Exit: 0 replaced, 1 the result did not verify, 2 the asset does not fit, 3 I/O error"},
    {"render", cmd_render, "rebyte render FILE -o OUT.png [--over MAP] [--diff OTHER|PATCH] [--size N] [--json]",
     "FILE seen from above as a PNG (docs/render.md). A map: its block grid, each block's cell\n"
     "coloured by kind (road and platform grey, start green, finish red, multilap orange,\n"
     "checkpoint blue, decoration olive) and shaded by height (higher is brighter), free blocks\n"
     "as squares and items as dots at their positions, the map's size as the frame, a scale bar\n"
     "and a north mark (x to the east, z to the north), a legend with the counts. A ghost or a\n"
     "replay: each ghost's path coloured by speed (blue slow to red fast), its checkpoint times\n"
     "marked, over the replay's own map. A data.win: its first room's instances.\n"
     "  -o OUT          the PNG (- for stdout)\n"
     "  --over MAP      draw the ghost's path over this map\n"
     "  --diff OTHER    mark what changes from FILE to OTHER (a file of the same format) or what\n"
     "                  a patch does to FILE: added elements green, removed red, moved ones as\n"
     "                  arrows from old to new, changed ones cyan, other changed facts (a name,\n"
     "                  medals) listed in the legend\n"
     "  --size N        the picture's longest side, 256 to 2048 pixels (default 1024)\n"
     "  --json          print what was drawn: the picture's size, a cell's pixels, blocks and\n"
     "                  items by kind, paths, the diff's changes (to stderr with -o -)\n"
     "Exit: 0 drawn, 2 bad input or nothing to draw, 3 a file could not be read or written"},
    {"json-patch", cmd_json_patch, "rebyte json-patch DOC.json PATCH.json [PATCH.json...] [--conflicts P]",
     "Apply an RFC 6902 patch to a plain JSON document and print the result (the engine alone;\n"
     "used to run the JSON Patch conformance suite). A patch that uses selectors, \"each\", [*],\n"
     "\"offset\", \"count\" or names (\"as\", @NAME), and several patches, run through apply's\n"
     "stack on the JSON (see `rebyte apply`).\n"
     "  --conflicts P  two patches that change one place: stop (default), first-wins, last-wins\n"
     "Exit 2 when a patch fails."},
    {"formats", cmd_formats, "rebyte formats", "List the formats rebyte reads and writes."},
};

static const size_t COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0];

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(COMMANDS[i].name, name) == 0) return &COMMANDS[i];
    return NULL;
}

static void print_main_help(FILE *f)
{
    fprintf(f, "rebyte %s: read game data files into a typed model, edit them, write them back.\n\n",
            REBYTE_VERSION_STRING);
    fprintf(f, "Usage:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++) fprintf(f, "  %s\n", COMMANDS[i].usage);
    fprintf(f, "\n`rebyte COMMAND --help` explains a command. `-` means stdin/stdout.\n"
               "Exit codes: 0 ok, 1 differs/did not verify, 2 bad input, 3 I/O error (stdout too), 64 usage.\n");
}

static const char *usage_of(const char *name)
{
    const command *c = find_command(name);
    return c ? c->usage : NULL;
}

static int cmd_formats(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) return cli_usage_error("formats", argv[1]);
    for (size_t i = 0; i < rb_format_count(); i++) printf("%-10s %s\n", rb_format_name(i), rb_format_description(i));
    return EXIT_OK;
}

static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    return 0;
}

static int run(int argc, char **argv)
{
    cli_signals_install(); /* a signal leaves no temporary file; a file size limit is a failed write */
    cli_usage_lookup(usage_of);
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        const command *c = argc > 2 ? find_command(argv[2]) : NULL;
        if (c) printf("usage: %s\n\n%s\n", c->usage, c->help);
        else print_main_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("rebyte %s\n", REBYTE_VERSION_STRING);
        return EXIT_OK;
    }
    const command *c = find_command(argv[1]);
    if (!c) {
        fprintf(stderr, "rebyte: unknown command \"%s\" (see rebyte --help)\n", argv[1]);
        return EXIT_USAGE;
    }
    if (wants_help(argc - 1, argv + 1)) {
        printf("usage: %s\n\n%s\n", c->usage, c->help);
        return EXIT_OK;
    }
    return c->run(argc - 1, argv + 1);
}

/* What a command printed reached stdout: a write or the last flush that failed (a full disk) is
 * exit 3 with a message, whatever the command's own outcome; a report that did not reach its
 * reader is no success. */
static int stdout_checked(int rc)
{
    errno = 0;
    int flush_failed = fflush(stdout) != 0;
    if (!flush_failed && !ferror(stdout)) return rc;
    fprintf(stderr, "rebyte: stdout: write failed%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
    return EXIT_IO;
}

int main(int argc, char **argv) { return stdout_checked(run(argc, argv)); }
