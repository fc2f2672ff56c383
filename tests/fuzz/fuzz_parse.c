/* tests/fuzz/fuzz_parse.c — libFuzzer target: the lexer and parser alone
 * over one input (every top-level statement, syntax errors included).
 * Built with ASan+UBSan by `make fuzz`; nothing is evaluated. */
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "parse.h"
#include "value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Chunk *c = chunk_new("<fuzz>", (const char *)data, size);
    Parser p;
    parser_init(&p, c);
    for (int i = 0; i < 100000; i++) {
        Node *n = NULL;
        int r = parser_next(&p, &n, NULL);
        if (r == 0) break;
        if (r < 0) exc_clear();
    }
    parser_fini(&p);
    chunk_unref(c);
    exc_clear();
    return 0;
}
