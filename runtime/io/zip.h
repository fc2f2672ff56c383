/* runtime/io/zip.h — the zip container of torch.save files (PyTorch's
 * caffe2/serialize/inline_container.cc) over libzip: stored entries with a
 * real CRC-32, each entry's data aligned to 64 bytes by an "FB" extra field
 * as 1.13 aligns it, read back from memory with every size checked. */
#ifndef TSR_IO_ZIP_H
#define TSR_IO_ZIP_H
#include <stddef.h>
#include <stdint.h>
#include "storage.h"

/* ---- writing ---- */
typedef struct tsr_zip_writer tsr_zip_writer;
/* A writer whose entries are named ARCHIVE/NAME. New, or NULL + error. */
tsr_zip_writer *tsr_zip_writer_new(const char *archive);
/* Adds the record ARCHIVE/name holding data[0..n). data is borrowed and must
 * stay alive until tsr_zip_writer_finish. 0, or -1 + error. */
int tsr_zip_writer_add(tsr_zip_writer *w, const char *name, const void *data, size_t n);
/* Writes the archive: into *out (a tsr_malloc'd buffer of *n bytes, the
 * caller frees it with tsr_free). 0, or -1 + RuntimeError. */
int tsr_zip_writer_finish(tsr_zip_writer *w, void **out, size_t *n);
void tsr_zip_writer_free(tsr_zip_writer *w);   /* NULL ok */

/* The archive name torch.save gives a path: its base name up to the last
 * '.' (PyTorchStreamWriter's basename()), into buf. -1 with 1.13's
 * "invalid file name: .pt" when that is empty. */
int tsr_zip_archive_name(const char *path, char *buf, size_t n);

/* ---- reading ---- */
typedef struct tsr_zip_reader tsr_zip_reader;
/* Opens the archive in data[0..n) (borrowed; it must outlive the reader):
 * PyTorchStreamReader's checks, with its messages ("PytorchStreamReader
 * failed reading zip archive: not a ZIP archive", "file in archive is not in
 * a subdirectory: NAME", the version record's). New, or NULL + RuntimeError. */
tsr_zip_reader *tsr_zip_reader_open(const void *data, size_t n);
void tsr_zip_reader_free(tsr_zip_reader *r);   /* NULL ok */
/* Whether the record ARCHIVE/name exists. */
int tsr_zip_reader_has(tsr_zip_reader *r, const char *name);
/* The record ARCHIVE/name into a new tsr_malloc'd buffer (*out, *n; one
 * extra NUL byte follows the data). 0, or -1 + "PytorchStreamReader failed
 * locating file NAME: file not found" / a read error. */
int tsr_zip_reader_get(tsr_zip_reader *r, const char *name, void **out, size_t *n);
/* The record as a new storage of nbytes on cpu (or meta: no data read),
 * element dtype dtype. The record must hold at least nbytes (PyTorch wraps
 * the record as it is and would read past a short one: tsr refuses it).
 * New reference, or NULL + RuntimeError. */
tsr_storage *tsr_zip_reader_storage(tsr_zip_reader *r, const char *name, size_t nbytes, tsr_dtype dtype,
                                    tsr_device device);

#endif
