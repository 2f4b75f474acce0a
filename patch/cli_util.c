#define _GNU_SOURCE
#include "cli_util.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

int cli_read_file(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        return -1;
    }
    rb_buf b;
    rb_buf_init(&b);
    uint8_t chunk[1 << 16];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) rb_buf_put(&b, chunk, n);
    int failed = ferror(f) || b.failed;
    if (f != stdin) fclose(f);
    if (failed) {
        fprintf(stderr, "rebyte: %s: read error\n", path);
        rb_buf_free(&b);
        return -1;
    }
    *data = rb_buf_take(&b, size);
    return 0;
}

static int write_all(int fd, const uint8_t *data, size_t size)
{
    while (size) {
        ssize_t w = write(fd, data, size);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        data += w;
        size -= (size_t)w;
    }
    return 0;
}

int cli_write_atomic(const char *path, const uint8_t *data, size_t size)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0) {
            fprintf(stderr, "rebyte: stdout: %s\n", strerror(errno));
            return -1;
        }
        return 0;
    }
    size_t len = strlen(path);
    char *tmp = malloc(len + 32);
    if (!tmp) return -1;
    snprintf(tmp, len + 32, "%s.rebyte-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "rebyte: %s: cannot create a temporary file: %s\n", path, strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp creates 0600; give the file the mode a plain create (or the file it replaces) has */
    struct stat old;
    mode_t mode;
    if (stat(path, &old) == 0) {
        mode = old.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    int failed = fchmod(fd, mode) != 0 || write_all(fd, data, size) != 0 || fsync(fd) != 0;
    int saved = errno;
    if (close(fd) != 0 && !failed) { failed = 1; saved = errno; }
    if (!failed && rename(tmp, path) != 0) { failed = 1; saved = errno; }
    if (failed) {
        unlink(tmp);
        fprintf(stderr, "rebyte: %s: write failed: %s (nothing was written)\n", path, strerror(saved));
    }
    free(tmp);
    return failed ? -1 : 0;
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct file_list {
    char **items;
    size_t count, cap;
} file_list;

static int list_add(file_list *l, const char *path)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **items = realloc(l->items, cap * sizeof(*items));
        if (!items) return -1;
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count] = strdup(path);
    return l->items[l->count++] ? 0 : -1;
}

static int walk(const char *path, file_list *l, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) return list_add(l, path);
    if (depth > 32) return 0;
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        return -1;
    }
    file_list here = {0};
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *child;
        size_t len = strlen(path);
        int slash = len && path[len - 1] == '/';
        if (asprintf(&child, "%s%s%s", path, slash ? "" : "/", e->d_name) < 0) break;
        list_add(&here, child);
        free(child);
    }
    closedir(d);
    qsort(here.items, here.count, sizeof(char *), compare_names);
    int rc = 0;
    for (size_t i = 0; i < here.count; i++) {
        if (walk(here.items[i], l, depth + 1) != 0) rc = -1;
        free(here.items[i]);
    }
    free(here.items);
    return rc;
}

int cli_collect_files(char **paths, int count, char ***files, size_t *file_count)
{
    file_list l = {0};
    int rc = 0;
    for (int i = 0; i < count; i++)
        if (walk(paths[i], &l, 0) != 0) rc = -1;
    *files = l.items;
    *file_count = l.count;
    return rc;
}

void cli_free_files(char **files, size_t count)
{
    for (size_t i = 0; i < count; i++) free(files[i]);
    free(files);
}

void cli_print_error(const rb_error *err)
{
    char text[1600];
    fprintf(stderr, "rebyte: %s\n", rb_error_format(err, text, sizeof text));
}

/* Limits from REBYTE_LIMITS="max_decompressed_size=1e9,max_count=...": the way to raise a limit
 * that a legitimate file hits. Unknown names are reported once and ignored. */
static void limits_from_environment(rb_limits *limits)
{
    rb_limits_default(limits);
    const char *text = getenv("REBYTE_LIMITS");
    if (!text) return;
    char *copy = strdup(text);
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq) continue;
        *eq = 0;
        uint64_t value = (uint64_t)strtod(eq + 1, NULL);
        if (strcmp(item, "max_decompressed_size") == 0) limits->max_decompressed_size = value;
        else if (strcmp(item, "max_count") == 0) limits->max_count = value;
        else if (strcmp(item, "max_depth") == 0) limits->max_depth = (uint32_t)value;
        else if (strcmp(item, "max_string") == 0) limits->max_string = value;
        else fprintf(stderr, "rebyte: REBYTE_LIMITS: unknown limit \"%s\" ignored\n", item);
    }
    free(copy);
}

rb_doc *cli_parse(const char *name, const uint8_t *data, size_t size, rb_error *err)
{
    rb_limits limits;
    limits_from_environment(&limits);
    rb_read_options opt = {.file_name = name, .limits = &limits};
    return rb_doc_parse(data, size, &opt, err);
}

json_t *cli_doc_json(const rb_doc *doc, const char *source_path, const uint8_t *source, size_t source_size,
                     rb_blob_mode blobs)
{
    json_t *body = rb_model_to_json(doc, doc->root, blobs);
    json_t *out = json_object();
    json_object_set_new(out, "$format", json_string(doc->format->name));
    if (source_path && blobs == RB_BLOBS_REF) {
        char crc[16];
        snprintf(crc, sizeof crc, "0x%08" PRIx32, (uint32_t)crc32(0, source, (uInt)source_size));
        json_object_set_new(out, "$source",
                            json_pack("{s:s,s:I,s:s}", "file", source_path, "size", (json_int_t)source_size, "crc32", crc));
    }
    json_object_update(out, body);
    json_decref(body);
    return out;
}

int cli_print_json(const json_t *json, const char *out_path)
{
    rb_buf b;
    rb_buf_init(&b);
    rb_json_print(json, &b);
    int rc = b.failed ? -1 : cli_write_atomic(out_path ? out_path : "-", b.data, b.size);
    rb_buf_free(&b);
    return rc;
}

void cli_progress(size_t done, size_t total, const char *name)
{
    if (total < 2 || !isatty(STDERR_FILENO)) return;
    const char *base = strrchr(name, '/');
    fprintf(stderr, "\r\033[K[%zu/%zu] %.60s", done, total, base ? base + 1 : name);
    fflush(stderr);
}

void cli_progress_clear(void)
{
    if (isatty(STDERR_FILENO)) fprintf(stderr, "\r\033[K");
}

int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return 0;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "rebyte: %s needs a value\n", name);
            *value = NULL;
            return -1;
        }
        *value = argv[++*i];
        return 1;
    }
    return 0;
}
