/* src/cmd/info.c — :info EXPR and :storage EXPR: evaluate EXPR, check that
 * it is a tensor (or, for :storage, a Storage) and print it with the views
 * of src/show/info.c. */
#include <stdio.h>

#include "bind/tensor.h"
#include "cmd/cmd.h"
#include "eval.h"
#include "show/show.h"

/* Evaluates arg and returns its tensor (new value reference in *hold), or
 * NULL with the error reported. Storage values are allowed when ok_storage. */
static Value *eval_arg(const char *cmd, const char *arg, bool ok_storage)
{
    if (!*arg) {
        fflush(stdout);
        fprintf(eval_opts.brief_errors ? stdout : stderr, "usage: :%s EXPR\n", cmd);
        return NULL;
    }
    Value *v = eval_expression("<input>", arg);
    if (!v) return NULL;
    if (is_tensor(v) || (ok_storage && is_storage(v))) return v;
    exc_set("TypeError", ":%s needs a tensor%s, not %s", cmd, ok_storage ? " or a storage" : "", type_name(v));
    decref(v);
    eval_report_error();
    return NULL;
}

int cmd_info(const char *arg)
{
    Value *v = eval_arg("info", arg, false);
    if (!v) return 1;
    show_tensor_info(tensor_of(v));
    decref(v);
    return 0;
}

int cmd_storage(const char *arg)
{
    Value *v = eval_arg("storage", arg, true);
    if (!v) return 1;
    tsr_tensor *t = is_tensor(v) ? tensor_of(v) : NULL;
    if (t && t->sparse) {   /* a sparse tensor's data lives in its indices and values */
        printf("sparse_coo tensor, %s: its storages are those of its indices and values\n",
               t->sparse->coalesced ? "coalesced" : "not coalesced");
        printf("indices ");
        show_storage(t->sparse->indices->storage, t->sparse->indices->dtype, t->sparse->indices);
        printf("values ");
        show_storage(t->sparse->values->storage, t->sparse->values->dtype, t->sparse->values);
    } else if (t) show_storage(t->storage, t->dtype, t);
    else show_storage(storage_of(v), storage_dtype(v), NULL);
    decref(v);
    return 0;
}
