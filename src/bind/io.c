/* src/bind/io.c — torch.save and torch.load (torch/serialization.py of 1.13:
 * _save, load, _load) and the io module's BytesIO they may write to. The zip
 * container and the storage records are runtime/io's; the pickle is
 * bind/io_pickle.c's. What 1.13 does before the pickle (opening the file,
 * the reader's checks) keeps its order, so the first error is PyTorch's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/io_pickle.h"
#include "bind/tensor.h"
#include "io/zip.h"

/* ------------------------------------------------------------ io.BytesIO */

typedef struct { char *p; size_t n, cap, pos; } Bytes;

static Bytes *bytes_of(Value *v) { return (Bytes *)v->u.ext.ptr; }

static void bytesio_destroy(Value *v)
{
    Bytes *b = bytes_of(v);
    if (b) tsr_free(b->p);
    tsr_free(b);
}

/* Writes data at the position (zero-filling a gap), as BytesIO.write. */
static int bytesio_write(Value *v, const void *data, size_t n)
{
    Bytes *b = bytes_of(v);
    size_t end = b->pos + n;
    if (end > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < end) cap *= 2;
        char *p = tsr_realloc(b->p, cap);
        if (!p) { tsr_error_clear(); return exc_seti("MemoryError", "%s", ""); }
        b->p = p;
        b->cap = cap;
    }
    if (b->pos > b->n) memset(b->p + b->n, 0, b->pos - b->n);
    memcpy(b->p + b->pos, data, n);
    b->pos = end;
    if (end > b->n) b->n = end;
    return 0;
}

static Value *bio_seek(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *x[2];
    int64_t pos, whence = 0;
    if (bind_args(a, "seek", "pos, whence=, /", x) < 0) return NULL;
    for (int i = 0; i < 2; i++)
        if (x[i] && !is_int_like(x[i]))
            return exc_set("TypeError", "'%s' object cannot be interpreted as an integer", type_name(x[i]));
    pos = x[0]->u.i;
    if (x[1]) whence = x[1]->u.i;
    Bytes *b = bytes_of(self);
    if (whence == 0 && pos < 0) return exc_set("ValueError", "negative seek value %lld", (long long)pos);
    if (whence < 0 || whence > 2) return exc_set("ValueError", "invalid whence (%lld, should be 0, 1 or 2)", (long long)whence);
    int64_t base = whence == 0 ? 0 : whence == 1 ? (int64_t)b->pos : (int64_t)b->n;
    int64_t np = base + pos;
    b->pos = np < 0 ? 0 : (size_t)np;
    return v_int((int64_t)b->pos);
}

static Value *bio_tell(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_meth_noargs(a, "BytesIO.tell") < 0) return NULL;
    return v_int((int64_t)bytes_of(self)->pos);
}

static Value *bio_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "seek")) return v_builtin("seek", bio_seek, v, NULL);
    if (!strcmp(name, "tell")) return v_builtin("tell", bio_tell, v, NULL);
    return NULL;
}

static Value *bio_repr(Value *v) { return v_strf("<_io.BytesIO object at %p>", (void *)v); }

static const char *bio_dir(Value *v, int i)
{
    static const char *const names[] = {"seek", "tell"};
    (void)v;
    return i < 2 ? names[i] : NULL;
}

static const VType t_bytesio = {.name = "BytesIO", .module = "_io", .destroy = bytesio_destroy, .repr = bio_repr,
                                .getattr = bio_getattr, .dir = bio_dir};

static Value *bio_new(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos || a->nkw)
        return exc_set("TypeError", "tsr's io.BytesIO() takes no initial value (tsr has no bytes objects)");
    Value *v = value_alloc(&t_bytesio);
    Bytes *b = tsr_calloc(1, sizeof *b);
    if (!b) { decref(v); tsr_error_clear(); return exc_set("MemoryError", "%s", ""); }
    v->u.ext.ptr = b;
    return v;
}

/* ------------------------------------------------------------ files */

static Value *os_error(const char *path)
{
    int e = errno;
    const char *type = e == ENOENT ? "FileNotFoundError" : e == EISDIR ? "IsADirectoryError"
                     : e == EACCES ? "PermissionError" : "OSError";
    return exc_set(type, "[Errno %d] %s: '%s'", e, strerror(e), path);
}

/* the whole file into a tsr_malloc'd buffer */
static int read_file(const char *path, char **out, size_t *n)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f) return os_error(path), -1;
    if (fstat(fileno(f), &st) < 0 || S_ISDIR(st.st_mode)) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : errno;
        fclose(f);
        return os_error(path), -1;
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, len = 0;
    char *buf = tsr_malloc(cap);
    if (!buf) { fclose(f); return bind_runtime_errori(); }
    for (;;) {
        if (len == cap) {
            char *p = tsr_realloc(buf, cap * 2);
            if (!p) { tsr_free(buf); fclose(f); return bind_runtime_errori(); }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) { tsr_free(buf); errno = EIO; return os_error(path), -1; }
    *out = buf;
    *n = len;
    return 0;
}

/* PyTorchStreamWriter's checks of a path, before anything is pickled */
static int check_save_path(const char *path, char *archive, size_t n)
{
    if (tsr_zip_archive_name(path, archive, n) < 0) return bind_runtime_errori();
    const char *slash = strrchr(path, '/');
    if (slash && slash != path) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        struct stat st;
        if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
            return exc_seti("RuntimeError", "Parent directory %s does not exist.", dir);
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return exc_seti("RuntimeError", "File %s cannot be opened.", path);
    return 0;
}

/* ------------------------------------------------------------ torch.save */

typedef struct {
    tsr_storage *s;
    tsr_dtype dtype;
    char *key;
    void *host;   /* a device storage's bytes on the host, or NULL */
} Saved;

typedef struct {
    Saved *e;
    int n, cap;
} SaveCtx;

static const char LOC_CPU[] = "cpu", LOC_META[] = "meta";

/* The location tag _save writes for a storage: "cpu", "meta", "cuda:1". */
static const char *location_of(const tsr_storage *s)
{
    static char tags[128][12];
    if (tsr_device_is_meta(s->device)) return LOC_META;
    if (s->device.type != TSR_DEV_CUDA || s->device.index < 0 || s->device.index >= 128) return LOC_CPU;
    char *t = tags[s->device.index];
    snprintf(t, sizeof tags[0], "cuda:%d", s->device.index);
    return t;
}

/* _save's persistent_id: one key per storage, in the order met */
static int persist(void *ctx, tsr_storage *s, tsr_dtype dtype, const char **key, const char **loc)
{
    SaveCtx *c = ctx;
    for (int i = 0; i < c->n; i++) {
        if (c->e[i].s != s) continue;
        if (c->e[i].dtype != dtype && s->data)
            return exc_seti("RuntimeError", "Cannot save multiple tensors or storages that view the same data as different types");
        *key = c->e[i].key;
        *loc = location_of(s);
        return 0;
    }
    if (s->device.type != TSR_DEV_CPU && s->device.type != TSR_DEV_CUDA && !tsr_device_is_meta(s->device))
        return exc_seti("NotImplementedError", "tsr saves cpu, cuda and meta storages only");
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 8;
        Saved *e = tsr_realloc(c->e, (size_t)cap * sizeof *e);
        if (!e) return bind_runtime_errori();
        c->e = e;
        c->cap = cap;
    }
    char *k = tsr_malloc(24);
    if (!k) return bind_runtime_errori();
    snprintf(k, 24, "%d", c->n);
    c->e[c->n++] = (Saved){tsr_storage_retain(s), dtype, k, NULL};
    *key = k;
    *loc = location_of(s);
    return 0;
}

static int by_key(const void *a, const void *b) { return strcmp(((const Saved *)a)->key, ((const Saved *)b)->key); }

/* The archive of obj: data.pkl, data/KEY for each storage with data (keys
 * in sorted order, as strings: "10" before "2"), version. */
static int save_archive(Value *obj, const char *archive, void **out, size_t *n)
{
    SaveCtx c = {0};
    PickleBuf pk = {0};
    tsr_zip_writer *w = NULL;
    int rc = -1;
    if (pickle_dump(obj, &pk, persist, &c) < 0) goto done;
    if (c.n > 1) qsort(c.e, (size_t)c.n, sizeof *c.e, by_key);   /* (c.e is NULL when nothing was saved) */
    if (!(w = tsr_zip_writer_new(archive)) || tsr_zip_writer_add(w, "data.pkl", pk.p, pk.n) < 0) goto rt;
    char names[64];
    for (int i = 0; i < c.n; i++) {
        tsr_storage *s = c.e[i].s;
        if (tsr_device_is_meta(s->device)) continue;
        snprintf(names, sizeof names, "data/%s", c.e[i].key);
        if (s->device.type != TSR_DEV_CPU) {   /* a device's bytes, fetched (a synchronizing copy) */
            const tsr_backend *be = tsr_device_backend(s->device);
            void *h = be ? tsr_malloc(s->nbytes ? s->nbytes : 1) : NULL;
            if (!h) goto rt;
            c.e[i].host = h;   /* the writer borrows it until finish */
            if (be->copy(h, TSR_CPU, s->data, s->device, s->nbytes) < 0 || tsr_zip_writer_add(w, names, h, s->nbytes) < 0)
                goto rt;
            continue;
        }
        if (tsr_zip_writer_add(w, names, s->data, s->nbytes) < 0) goto rt;
    }
    if (tsr_zip_writer_add(w, "version", "3\n", 2) < 0 || tsr_zip_writer_finish(w, out, n) < 0) goto rt;
    rc = 0;
    goto done;
rt:
    bind_runtime_error();
done:
    tsr_zip_writer_free(w);
    tsr_free(pk.p);
    for (int i = 0; i < c.n; i++) {
        tsr_storage_release(c.e[i].s);
        tsr_free(c.e[i].key);
        tsr_free(c.e[i].host);
    }
    tsr_free(c.e);
    return rc;
}

static Value *f_save(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[5];
    if (bind_args(a, "save", "def obj, f, pickle_module=, pickle_protocol=, _use_new_zipfile_serialization=", x) < 0)
        return NULL;
    if (x[3]) {
        int64_t proto;
        if (bind_int(x[3], "save", "pickle_protocol", &proto) < 0) return NULL;
        if (proto != 2) return exc_set("NotImplementedError", "tsr writes pickle protocol 2 only (torch.save's default)");
    }
    if (x[4] && value_truth(x[4]) == 0)
        return exc_set("NotImplementedError", "tsr writes the zip format only (_use_new_zipfile_serialization=True)");
    if (x[2]) return exc_set("NotImplementedError", "tsr pickles with its own pickle module only");
    Value *f = x[1];
    char archive[256];
    if (f->type == &t_str) {
        if (check_save_path(f->u.s.p, archive, sizeof archive) < 0) return NULL;
    } else if (f->type == &t_bytesio) {
        strcpy(archive, "archive");
    } else {
        return exc_set("AttributeError", "'%s' object has no attribute 'write'", type_name(f));
    }
    void *buf;
    size_t n;
    if (save_archive(x[0], archive, &buf, &n) < 0) return NULL;
    int rc = 0;
    if (f->type == &t_bytesio) {
        rc = bytesio_write(f, buf, n);
    } else {
        FILE *o = fopen(f->u.s.p, "wb");
        if (!o) rc = exc_seti("RuntimeError", "File %s cannot be opened.", f->u.s.p);
        else {
            size_t put = fwrite(buf, 1, n, o);
            if (fclose(o) != 0 || put != n)
                rc = exc_seti("RuntimeError", "[enforce fail at inline_container.cc:300] . unexpected pos %zu vs %zu", put, n);
        }
    }
    tsr_free(buf);
    return rc < 0 ? NULL : v_none();
}

/* ------------------------------------------------------------ torch.load */

typedef struct {
    tsr_zip_reader *r;
    Value *map;          /* map_location, or NULL */
    Value *loaded;       /* key → storage value */
} LoadCtx;

/* default_restore_location: the storage's device for a location tag */
static int restore_device(const char *loc, tsr_device *dev)
{
    if (!strcmp(loc, "cpu")) { *dev = TSR_CPU; return 0; }
    if (!strcmp(loc, "meta")) { *dev = TSR_META; return 0; }
    if (!strncmp(loc, "cuda", 4) && (loc[4] == 0 || loc[4] == ':')) {
        /* validate_cuda_device */
        tsr_device d;
        if (tsr_device_parse(loc, &d) < 0) return bind_runtime_errori();
        const tsr_backend *be = tsr_device_backend((tsr_device){TSR_DEV_CUDA, 0});
        int count = be && be->device_count ? be->device_count() : 0;
        if (!be) tsr_error_clear();
        if (count == 0)
            return exc_seti("RuntimeError", "Attempting to deserialize object on a CUDA device but "
                            "torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use "
                            "torch.load with map_location=torch.device('cpu') to map your storages to the CPU.");
        if (d.index < 0) d.index = 0;
        if (d.index >= count)
            return exc_seti("RuntimeError", "Attempting to deserialize object on CUDA device %d but "
                            "torch.cuda.device_count() is %d. Please use torch.load with map_location to map your "
                            "storages to an existing device.", d.index, count);
        *dev = d;
        return 0;
    }
    return exc_seti("RuntimeError", "don't know how to restore data location of torch.storage.UntypedStorage (tagged with %s)",
                    loc);
}

/* _get_restore_location(map_location) applied to one location */
static int mapped_location(Value *map, const char *loc, char *buf, size_t n, Value **callable)
{
    *callable = NULL;
    snprintf(buf, n, "%s", loc);
    if (!map) return 0;
    if (map->type == &t_dict) {
        Value *k = v_str(loc), *v = dict_get(map, k);
        decref(k);
        if (!v) return exc_pending() ? -1 : 0;
        if (v->type != &t_str)   /* default_restore_location calls location.startswith */
            return exc_seti("AttributeError", "'%s' object has no attribute 'startswith'",
                            is_device(v) ? "torch.device" : type_name(v));
        snprintf(buf, n, "%s", v->u.s.p);
        return 0;
    }
    if (map->type == &t_str) { snprintf(buf, n, "%s", map->u.s.p); return 0; }
    if (is_device(map)) { tsr_device_str(device_of(map), buf, n); return 0; }
    if (!value_is_callable(map)) return exc_seti("TypeError", "'%s' object is not callable", type_name(map));
    *callable = map;
    return 0;
}

/* _load's persistent_load → load_tensor: each key's record read once */
static Value *load_storage(void *ctx, tsr_dtype dtype, const char *key, const char *location, int64_t numel)
{
    LoadCtx *c = ctx;
    Value *k = v_str(key), *have = dict_get(c->loaded, k);
    if (have) { decref(k); return incref(have); }
    char name[96], loc[64];
    snprintf(name, sizeof name, "data/%s", key);
    Value *callable, *result = NULL;
    tsr_device dev;
    size_t nbytes = (size_t)numel * (size_t)tsr_dtype_itemsize(dtype);
    if (mapped_location(c->map, location, loc, sizeof loc, &callable) < 0) goto fail;
    if (callable) {
        tsr_storage *s = tsr_zip_reader_storage(c->r, name, nbytes, dtype, TSR_CPU);
        if (!s) { bind_runtime_error(); goto fail; }
        Value *sv = v_storage(s, dtype);
        tsr_storage_release(s);
        Value *args[2] = {sv, v_str(location)};
        Value *r = value_call0(callable, 2, args);
        decref(args[1]);
        if (!r) { decref(sv); goto fail; }
        if (is_none(r)) {
            decref(r);
            if (restore_device(location, &dev) < 0) { decref(sv); goto fail; }
            if (tsr_device_is_meta(dev)) {
                tsr_storage *m = tsr_storage_new(nbytes, dtype, TSR_META);
                decref(sv);
                if (!m) { bind_runtime_error(); goto fail; }
                sv = v_storage(m, dtype);
                tsr_storage_release(m);
            }
            result = sv;
        } else if (r->type == &t_storage) {
            decref(sv);
            result = r;
        } else {
            decref(sv);
            decref(r);
            exc_set("TypeError", "map_location must return a storage or None");
            goto fail;
        }
    } else {
        if (restore_device(loc, &dev) < 0) goto fail;
        tsr_storage *s = tsr_device_is_meta(dev) ? tsr_storage_new(nbytes, dtype, TSR_META)
                                                  : tsr_zip_reader_storage(c->r, name, nbytes, dtype, TSR_CPU);
        if (s && dev.type == TSR_DEV_CUDA) {   /* read on the host, then moved to the device */
            tsr_storage *d = tsr_storage_new(nbytes, dtype, dev);
            const tsr_backend *be = d ? tsr_device_backend(dev) : NULL;
            if (!be || (nbytes && be->copy(d->data, dev, s->data, TSR_CPU, nbytes) < 0)) {
                tsr_storage_release(d);
                d = NULL;
            }
            tsr_storage_release(s);
            s = d;
        }
        if (!s) { bind_runtime_error(); goto fail; }
        result = v_storage(s, dtype);
        tsr_storage_release(s);
    }
    if (dict_set(c->loaded, k, result) < 0) { decref(result); result = NULL; }
fail:
    decref(k);
    return result;
}

static const char UNSAFE[] = "Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will "
                             "likely succeed, but it can result in arbitrary code execution.Do it only if you get the "
                             "file from a trusted source. WeightsUnpickler error: ";

/* pickle.UnpicklingError(UNSAFE_MESSAGE + str(e)) for a RuntimeError */
static Value *wrap_unsafe(void)
{
    if (!exc_matches("RuntimeError") || strcmp(exc_type(), "RuntimeError")) return NULL;
    char *msg = value_xstrdup(exc_message());
    exc_clear();
    exc_set("UnpicklingError", "%s%s", UNSAFE, msg);
    free(msg);
    return NULL;
}

/* The legacy format's first pickle is this magic number (serialization.py) */
static const char LEGACY[] = "\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19";

static Value *load_bytes(const char *data, size_t n, Value *map, bool wo)
{
    if (n < 4 || memcmp(data, "PK\x03\x04", 4)) {
        /* _legacy_load: the magic number's pickle first */
        if (n >= sizeof LEGACY - 1 && !memcmp(data, LEGACY, sizeof LEGACY - 1))
            return exc_set("NotImplementedError", "tsr does not read the legacy torch.save format of PyTorch before 1.6 "
                           "(_use_new_zipfile_serialization=False); load it in PyTorch and save it again");
        Value *magic = pickle_load(data, n, wo, NULL, NULL);
        if (!magic) return wo ? wrap_unsafe() : NULL;
        decref(magic);
        exc_set("RuntimeError", "Invalid magic number; corrupt file?");
        return wo ? wrap_unsafe() : NULL;
    }
    tsr_zip_reader *r = tsr_zip_reader_open(data, n);
    if (!r) return bind_runtime_error();
    Value *result = NULL;
    if (tsr_zip_reader_has(r, "constants.pkl")) {
        exc_set("NotImplementedError", "this is a TorchScript archive (torch.jit.save), which tsr does not load");
        goto done;
    }
    LoadCtx c = {.r = r, .map = map, .loaded = v_dict()};
    char *pk;
    size_t pn;
    if (tsr_zip_reader_get(r, "data.pkl", (void **)&pk, &pn) < 0) {
        bind_runtime_error();
    } else {
        result = pickle_load(pk, pn, wo, load_storage, &c);
        tsr_free(pk);
    }
    decref(c.loaded);
    if (!result && wo) wrap_unsafe();
done:
    tsr_zip_reader_free(r);
    return result;
}

static Value *f_load(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[5];
    if (bind_args(a, "load", "def f, map_location=, pickle_module=, *, weights_only=, **pickle_load_args", x) < 0) return NULL;
    bool wo = false;
    if (x[2] && is_none(x[2])) x[2] = NULL;
    if (x[1] && is_none(x[1])) x[1] = NULL;
    if (x[3]) {
        int t = value_truth(x[3]);
        if (t < 0) return NULL;
        wo = t;
    }
    if (wo && x[2]) return exc_set("RuntimeError", "Can not safely load weights when expiclit picke_module is specified");
    if (x[2]) return exc_set("NotImplementedError", "tsr unpickles with its own pickle module only");
    Value *f = x[0], *map = x[1];
    if (f->type == &t_bytesio) {
        Bytes *b = bytes_of(f);
        size_t at = b->pos < b->n ? b->pos : b->n;
        Value *r = load_bytes(b->p ? b->p + at : "", b->n - at, map, wo);
        b->pos = b->n;
        return r;
    }
    if (f->type != &t_str)
        return exc_set("AttributeError", "'%s' object has no attribute 'seek'. You can only torch.load from a file that "
                       "is seekable. Please pre-load the data into a buffer like io.BytesIO and try to load from it "
                       "instead.", type_name(f));
    char *data = NULL;
    size_t n = 0;
    if (read_file(f->u.s.p, &data, &n) < 0) return NULL;
    Value *r = load_bytes(data, n, map, wo);
    tsr_free(data);
    return r;
}

/* For the fuzz target: torch.load of data[0..n) (weights_only as given).
 * New reference or NULL with the exception. */
Value *bind_io_load_bytes(const char *data, size_t n, bool weights_only)
{
    return load_bytes(data, n, NULL, weights_only);
}

void bind_io_init(void)
{
    Value *torch = bind_module("torch");
    module_add_fn(torch, "save", f_save);
    module_add_fn(torch, "load", f_load);
    Value *io = bind_module("io");
    module_add(io, "BytesIO", v_builtin("BytesIO", bio_new, NULL, NULL));
}
