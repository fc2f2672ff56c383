/* runtime/io/zip.c — torch.save's zip container over libzip (Debian's
 * libzip-dev). Entries are written in the order they are added, stored, each
 * with 1.13's "FB" padding field so that its data starts on a 64-byte
 * boundary (caffe2/serialize/inline_container.cc getPadding). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zip.h>

#include "error.h"
#include "io/zip.h"

#define ALIGN 64
#define LOCAL_HEADER 30   /* a local file header without name and extra fields */

typedef struct { char *name; const void *data; size_t n; } entry;

struct tsr_zip_writer {
    char *archive;
    entry *e;
    int n, cap;
};

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = tsr_malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

tsr_zip_writer *tsr_zip_writer_new(const char *archive)
{
    tsr_zip_writer *w = tsr_calloc(1, sizeof *w);
    if (!w) return NULL;
    if (!(w->archive = dupstr(archive))) { tsr_free(w); return NULL; }
    return w;
}

void tsr_zip_writer_free(tsr_zip_writer *w)
{
    if (!w) return;
    for (int i = 0; i < w->n; i++) tsr_free(w->e[i].name);
    tsr_free(w->e);
    tsr_free(w->archive);
    tsr_free(w);
}

int tsr_zip_writer_add(tsr_zip_writer *w, const char *name, const void *data, size_t n)
{
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 8;
        entry *e = tsr_realloc(w->e, (size_t)cap * sizeof *e);
        if (!e) return -1;
        w->e = e;
        w->cap = cap;
    }
    size_t len = strlen(w->archive) + 1 + strlen(name) + 1;
    char *full = tsr_malloc(len);
    if (!full) return -1;
    snprintf(full, len, "%s/%s", w->archive, name);
    w->e[w->n++] = (entry){full, data, n};
    return 0;
}

static int zip_fail(const char *what, zip_error_t *err)
{
    tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamWriter failed %s: %s", what, zip_error_strerror(err));
    return -1;
}

int tsr_zip_writer_finish(tsr_zip_writer *w, void **out, size_t *n)
{
    zip_error_t err;
    zip_error_init(&err);
    *out = NULL;
    *n = 0;
    zip_source_t *mem = zip_source_buffer_create(NULL, 0, 0, &err);
    if (!mem) return zip_fail("creating the archive", &err);
    zip_source_keep(mem);
    zip_t *za = zip_open_from_source(mem, ZIP_TRUNCATE, &err);
    if (!za) { zip_source_free(mem); return zip_fail("creating the archive", &err); }
    /* entries are written in index order: each one's local header offset is
     * the sum of the ones before it */
    uint64_t offset = 0;
    for (int i = 0; i < w->n; i++) {
        const entry *e = &w->e[i];
        zip_source_t *src = zip_source_buffer(za, e->n ? e->data : "", e->n, 0);
        zip_int64_t idx = src ? zip_file_add(za, e->name, src, ZIP_FL_ENC_UTF_8) : -1;
        if (idx < 0) {
            if (src) zip_source_free(src);
            goto zfail;
        }
        size_t name_len = strlen(e->name);
        uint64_t start = offset + LOCAL_HEADER + name_len + 4;   /* + the FB field's header */
        size_t padn = (size_t)((ALIGN - start % ALIGN) % ALIGN);
        zip_uint8_t padz[ALIGN];
        memset(padz, 'Z', sizeof padz);
        if (zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_STORE, 0) < 0 ||
            zip_file_set_mtime(za, (zip_uint64_t)idx, (time_t)315532800 + 86400, 0) < 0 ||
            zip_file_extra_field_set(za, (zip_uint64_t)idx, 0x4246, ZIP_EXTRA_FIELD_NEW, padz,
                                     (zip_uint16_t)padn, ZIP_FL_LOCAL) < 0)
            goto zfail;
        offset = start + padn + e->n;
    }
    if (zip_close(za) < 0) goto zfail;
    za = NULL;
    zip_stat_t st;
    if (zip_source_stat(mem, &st) < 0 || zip_source_open(mem) < 0) {
        zip_error_set(&err, ZIP_ER_INTERNAL, 0);
        goto sfail;
    }
    void *buf = tsr_malloc(st.size ? st.size : 1);
    if (!buf) { zip_source_close(mem); zip_source_free(mem); return -1; }
    zip_int64_t got = zip_source_read(mem, buf, st.size);
    zip_source_close(mem);
    zip_source_free(mem);
    if (got < 0 || (zip_uint64_t)got != st.size) {
        tsr_free(buf);
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamWriter failed writing the archive");
        return -1;
    }
    *out = buf;
    *n = (size_t)st.size;
    return 0;
zfail:
    zip_error_set(&err, zip_error_code_zip(zip_get_error(za)), zip_error_code_system(zip_get_error(za)));
    zip_discard(za);
sfail:
    zip_source_free(mem);
    return zip_fail("writing the archive", &err);
}

int tsr_zip_archive_name(const char *path, char *buf, size_t n)
{
    size_t start = 0, len = strlen(path);
    for (size_t i = 0; i < len; i++)
        if (path[i] == '/' || path[i] == '\\') start = i + 1;
    size_t end = len;
    for (size_t i = len; i > start; i--)
        if (path[i - 1] == '.') { end = i - 1; break; }
    if (end <= start) {
        tsr_error_set(TSR_ERR_RUNTIME, "[enforce fail at inline_container.cc:354] . invalid file name: %s", path);
        return -1;
    }
    if (end - start >= n) {
        tsr_error_set(TSR_ERR_RUNTIME, "File %s cannot be opened.", path);
        return -1;
    }
    memcpy(buf, path + start, end - start);
    buf[end - start] = 0;
    return 0;
}

/* ------------------------------------------------------------ reading */

struct tsr_zip_reader {
    zip_t *za;
    size_t size;         /* the archive's bytes */
    char *prefix;        /* "archive/" */
};

void tsr_zip_reader_free(tsr_zip_reader *r)
{
    if (!r) return;
    if (r->za) zip_discard(r->za);
    tsr_free(r->prefix);
    tsr_free(r);
}

/* miniz's wording for what libzip found (PyTorch's reader is miniz) */
static const char *open_error(int code)
{
    switch (code) {
    case ZIP_ER_NOZIP: return "failed finding central directory";
    case ZIP_ER_MEMORY: return "allocation failed";
    case ZIP_ER_MULTIDISK: return "unsupported multidisk archive";
    default: return "invalid header or archive is corrupted";
    }
}

static zip_int64_t locate(tsr_zip_reader *r, const char *name)
{
    size_t len = strlen(r->prefix) + strlen(name) + 1;
    char *full = tsr_malloc(len);
    if (!full) return -2;
    snprintf(full, len, "%s%s", r->prefix, name);
    zip_int64_t i = zip_name_locate(r->za, full, ZIP_FL_ENC_RAW);
    tsr_free(full);
    return i;
}

int tsr_zip_reader_has(tsr_zip_reader *r, const char *name) { return locate(r, name) >= 0; }

/* Reads entry idx (of st.size bytes) into dst. 0, or -1 + error. */
static int read_entry(tsr_zip_reader *r, zip_int64_t idx, const char *name, void *dst, size_t n)
{
    zip_file_t *f = zip_fopen_index(r->za, (zip_uint64_t)idx, 0);
    const char *why = NULL;
    if (!f) why = zip_error_strerror(zip_get_error(r->za));
    size_t done = 0;
    while (!why && done < n) {
        if (tsr_check_interrupt()) { zip_fclose(f); return -1; }
        size_t chunk = n - done < ((size_t)1 << 24) ? n - done : (size_t)1 << 24;
        zip_int64_t got = zip_fread(f, (char *)dst + done, chunk);
        if (got <= 0) {
            zip_error_t *e = zip_file_get_error(f);
            why = zip_error_code_zip(e) == ZIP_ER_CRC ? "CRC-32 check failed" : got == 0 ? "unexpected end of record"
                                                                                             : zip_error_strerror(e);
            break;
        }
        done += (size_t)got;
    }
    if (!why && f) {
        /* the CRC is checked when the end of the data is read */
        char probe;
        zip_int64_t got = zip_fread(f, &probe, 1);
        if (got < 0) why = zip_error_code_zip(zip_file_get_error(f)) == ZIP_ER_CRC ? "CRC-32 check failed"
                                                                                         : "decompression failed";
    }
    char whybuf[256];
    if (why) { /* libzip's message lives in f, which zip_fclose frees */
        snprintf(whybuf, sizeof whybuf, "%s", why);
        why = whybuf;
    }
    if (f) zip_fclose(f);
    if (why) {
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamReader failed reading file %s: %s", name, why);
        return -1;
    }
    return 0;
}

static int entry_size(tsr_zip_reader *r, const char *name, zip_int64_t *idx, size_t *n)
{
    *idx = locate(r, name);
    if (*idx == -2) return -1;
    if (*idx < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamReader failed locating file %s: file not found", name);
        return -1;
    }
    zip_stat_t st;
    if (zip_stat_index(r->za, (zip_uint64_t)*idx, 0, &st) < 0 || !(st.valid & ZIP_STAT_SIZE)) {
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamReader failed reading file %s: invalid header or archive is corrupted",
                      name);
        return -1;
    }
    /* a size the archive cannot hold (stored: its own bytes; deflated: at
     * most 1032 times them) is a corrupt directory, not an allocation */
    if (!(st.valid & ZIP_STAT_COMP_SIZE) || st.comp_size > r->size ||
        st.size > (st.comp_method == ZIP_CM_STORE ? st.comp_size : st.comp_size * 1032 + 1024)) {
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamReader failed reading file %s: invalid header or archive is corrupted",
                      name);
        return -1;
    }
    *n = (size_t)st.size;
    return 0;
}

int tsr_zip_reader_get(tsr_zip_reader *r, const char *name, void **out, size_t *n)
{
    zip_int64_t idx;
    *out = NULL;
    if (entry_size(r, name, &idx, n) < 0) return -1;
    char *buf = tsr_malloc(*n + 1);
    if (!buf) return -1;
    if (read_entry(r, idx, name, buf, *n) < 0) { tsr_free(buf); return -1; }
    buf[*n] = 0;
    *out = buf;
    return 0;
}

tsr_storage *tsr_zip_reader_storage(tsr_zip_reader *r, const char *name, size_t nbytes, tsr_dtype dtype,
                                    tsr_device device)
{
    zip_int64_t idx;
    size_t n;
    if (entry_size(r, name, &idx, &n) < 0) return NULL;
    if (n < nbytes) {
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamReader failed reading file %s: the record has %zu bytes, "
                      "but its storage needs %zu", name, n, nbytes);
        return NULL;
    }
    tsr_storage *s = tsr_storage_new(nbytes, dtype, device);
    if (!s) return NULL;
    if (nbytes && s->data) {
        /* a longer record is read whole (its CRC covers all of it), then cut */
        void *buf = n == nbytes ? s->data : tsr_malloc(n);
        if (!buf || read_entry(r, idx, name, buf, n) < 0) {
            if (buf != s->data) tsr_free(buf);
            tsr_storage_release(s);
            return NULL;
        }
        if (buf != s->data) {
            memcpy(s->data, buf, nbytes);
            tsr_free(buf);
        }
    }
    return s;
}

/* PyTorchStreamReader::init's version check (inline_container.cc) */
static int check_version(tsr_zip_reader *r)
{
    const char *rec = tsr_zip_reader_has(r, ".data/version") ? ".data/version" : "version";
    if (!tsr_zip_reader_has(r, rec)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected hasRecord(\"version\") to be true, but got false.  (Could this error "
                      "message be improved?  If so, please report an enhancement request to PyTorch.)");
        return -1;
    }
    char *v;
    size_t n;
    if (tsr_zip_reader_get(r, rec, (void **)&v, &n) < 0) return -1;
    /* caffe2::stoull: leading blanks, an optional sign, digits */
    const char *p = v;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;
    const char *digits = p + (*p == '+' || *p == '-');
    int ok = *digits >= '0' && *digits <= '9' && strlen(v) == n;
    unsigned long long ver = ok ? strtoull(p, NULL, 10) : 0;
    if (!ok) {
        tsr_error_set(TSR_ERR_RUNTIME, "[enforce fail at inline_container.cc:148] . Couldn't parse the version %.*s as "
                      "Long Long.", (int)(n > 200 ? 200 : n), v);
    } else if (ver < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "[enforce fail at inline_container.cc:156] . Attempted to read a PyTorch file "
                      "with version %llu, but the minimum supported version for reading is 1. Your PyTorch script "
                      "module file is too old. Please regenerate it with latest version of PyTorch to mitigate this "
                      "issue.", ver);
    } else if (ver > 10) {
        tsr_error_set(TSR_ERR_RUNTIME, "[enforce fail at inline_container.cc:165] . Attempted to read a PyTorch file "
                      "with version %llu, but the maximum supported version for reading is 10. The version of your "
                      "PyTorch installation may be too old, please upgrade PyTorch to latest version to mitigate "
                      "this issue.", ver);
    }
    tsr_free(v);
    return ok && ver >= 1 && ver <= 10 ? 0 : -1;
}

tsr_zip_reader *tsr_zip_reader_open(const void *data, size_t n)
{
    tsr_zip_reader *r = tsr_calloc(1, sizeof *r);
    if (!r) return NULL;
    r->size = n;
    if (n < 22) {   /* shorter than an end-of-central-directory record */
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamReader failed reading zip archive: not a ZIP archive");
        goto fail;
    }
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *src = zip_source_buffer_create(data, n, 0, &err);
    if (!src) { tsr_error_nomem(n); goto fail; }
    r->za = zip_open_from_source(src, ZIP_RDONLY, &err);
    if (!r->za) {
        zip_source_free(src);
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamReader failed reading zip archive: %s",
                      open_error(zip_error_code_zip(&err)));
        zip_error_fini(&err);
        goto fail;
    }
    zip_int64_t count = zip_get_num_entries(r->za, 0);
    if (count <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "[enforce fail at inline_container.cc:122] . archive does not contain any files");
        goto fail;
    }
    const char *first = zip_get_name(r->za, 0, ZIP_FL_ENC_RAW);
    if (!first) {
        tsr_error_set(TSR_ERR_RUNTIME, "PytorchStreamReader failed getting filename: invalid header or archive is "
                      "corrupted");
        goto fail;
    }
    const char *slash = strchr(first, '/');
    if (!slash) {
        tsr_error_set(TSR_ERR_RUNTIME, "[enforce fail at inline_container.cc:129] . file in archive is not in a "
                      "subdirectory: %s", first);
        goto fail;
    }
    size_t plen = (size_t)(slash - first) + 1;
    if (!(r->prefix = tsr_malloc(plen + 1))) goto fail;
    memcpy(r->prefix, first, plen);
    r->prefix[plen] = 0;
    if (check_version(r) < 0) goto fail;
    return r;
fail:
    tsr_zip_reader_free(r);
    return NULL;
}
