/* src/repl.c — the REPL: GNU Readline's callback interface (so Ctrl-C can
 * abandon a line without longjmp), `>>> ` / `... ` prompts, a blank line
 * ending a block, history appended line by line as it is entered, and
 * completion of names, attributes, keywords and keyword arguments. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "bind/bind.h"
#include "error.h"
#include "cmd/cmd.h"
#include "error.h"
#include "eval.h"
#include "lex.h"
#include "repl.h"

#ifndef TSR_VERSION
#define TSR_VERSION "0.0.0"
#endif

volatile sig_atomic_t repl_sigint;
volatile sig_atomic_t repl_active;
volatile sig_atomic_t repl_session;

static char *buf;          /* the statement being entered */
static size_t buflen, bufcap;
static bool done;
static char *hist_path;
static bool hist_ok;

/* ------------------------------------------------------------ history */

static int mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        int r = mkdir(path, 0700);
        *p = '/';
        if (r < 0 && errno != EEXIST) return -1;
    }
    if (mkdir(path, 0700) < 0 && errno != EEXIST) return -1;
    return 0;
}

/* A history file that holds entries but no "#TIME" lines before them. */
static bool legacy_history(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    int a = fgetc(f), b = fgetc(f);
    fclose(f);
    return a != EOF && !(a == '#' && b >= '0' && b <= '9');
}

static void history_open(void)
{
    const char *env = getenv("TSR_HISTORY");
    if (env) {
        if (!*env) return;
        hist_path = value_xstrdup(env);
    } else {
        const char *state = getenv("XDG_STATE_HOME");
        const char *home = getenv("HOME");
        char dir[4096];
        if (state && *state) snprintf(dir, sizeof dir, "%s/tsr", state);
        else if (home && *home) snprintf(dir, sizeof dir, "%s/.local/state/tsr", home);
        else return;
        if (mkdirs(dir) < 0) {
            fprintf(stderr, "tsr: warning: cannot create %s: %s; history is not saved\n", dir, strerror(errno));
            return;
        }
        size_t n = strlen(dir) + 16;
        hist_path = value_xmalloc(n);
        snprintf(hist_path, n, "%s/history", dir);
    }
    /* a block is one entry: each entry is written after a "#TIME" line,
     * and the lines up to the next one are read back as one entry */
    history_comment_char = '#';
    history_write_timestamps = 1;
    history_multiline_entries = legacy_history(hist_path) ? 0 : 1;
    read_history(hist_path);
    if (!history_multiline_entries) {
        /* a file of one line per entry (tsr before 0.2): rewritten once with
         * the "#TIME" lines, else its lines would read back as one entry */
        history_multiline_entries = 1;
        write_history(hist_path);
    }
    int fd = open(hist_path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0) {
        fprintf(stderr, "tsr: warning: cannot write history file %s: %s\n", hist_path, strerror(errno));
        return;
    }
    close(fd);
    hist_ok = true;
    history_truncate_file(hist_path, 10000);
}

/* Each entered line goes to the file at once with O_APPEND, so two sessions
 * and a crash lose nothing. */
static void history_add(const char *line)
{
    if (!*line) return;
    add_history(line);
    if (!hist_ok) return;
    if (append_history(1, hist_path) != 0) {
        fprintf(stderr, "tsr: warning: cannot write history file %s: %s\n", hist_path, strerror(errno));
        hist_ok = false;
    }
}

/* ------------------------------------------------------------ completion */

static const char *const py_keywords[] = {
    "and", "as", "assert", "break", "continue", "def", "del", "elif", "else", "False", "for", "from",
    "if", "import", "in", "is", "lambda", "None", "not", "or", "pass", "return", "True", "while", "with", NULL,
};

static const char *const common_kwargs[] = {
    "dtype=", "device=", "layout=", "requires_grad=", "out=", "dim=", "keepdim=", "memory_format=",
    "names=", "generator=", "pin_memory=", "alpha=", "rounding_mode=", "sep=", "end=", "key=", "reverse=", NULL,
};

static Value *cand;        /* list of candidate strings for the current completion */
static size_t cand_pos;

static void cand_add(const char *prefix, const char *s, const char *text_before, size_t plen)
{
    if (strncmp(s, prefix, plen) != 0) return;
    Value *v = v_strf("%s%s", text_before, s);
    for (size_t i = 0; i < seq_len(cand); i++)
        if (!strcmp(seq_get(cand, i)->u.s.p, v->u.s.p)) { decref(v); return; }
    list_append_steal(cand, v);
}

static char *cand_gen(const char *text, int state)
{
    (void)text;
    if (state == 0) cand_pos = 0;
    if (!cand || cand_pos >= seq_len(cand)) return NULL;
    /* (Readline frees it with free(); a lost candidate is no error) */
    const Value *s = seq_get(cand, cand_pos++);
    char *p = value_try_realloc(NULL, s->u.s.n + 1);
    return p ? memcpy(p, s->u.s.p, s->u.s.n + 1) : NULL;
}

/* Resolves a dotted name (a.b.c) without calling anything. New ref or NULL. */
static Value *resolve_dotted(const char *s, size_t n)
{
    char name[256];
    size_t i = 0;
    Value *cur = NULL;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != '.') j++;
        if (j - i >= sizeof name) { decref(cur); return NULL; }
        memcpy(name, s + i, j - i);
        name[j - i] = 0;
        Value *next;
        if (!cur) {
            next = dict_get_str(eval_globals(), name);
            if (!next) next = dict_get_str(bind_builtins(), name);
            if (next) incref(next);
        } else {
            next = cur->type->getattr ? cur->type->getattr(cur, name) : NULL;
            exc_clear();
        }
        decref(cur);
        if (!next) return NULL;
        cur = next;
        i = j + 1;
    }
    return cur;
}

/* Inside an unclosed call "f(" before the cursor? */
static bool in_call(const char *line, int end)
{
    int depth = 0;
    for (int i = end - 1; i >= 0; i--) {
        if (line[i] == ')' || line[i] == ']') depth++;
        else if (line[i] == '(' || line[i] == '[') {
            if (depth == 0) return line[i] == '(' && i > 0 && (isalnum((unsigned char)line[i - 1]) || line[i - 1] == '_');
            depth--;
        }
    }
    return false;
}

/* ":load FILE" completes file names: there a word is broken at blanks only
 * (not at '/', '.' or '-'). */
static bool completing_file(void)
{
    return !strncmp(rl_line_buffer, ":load ", 6) && rl_point >= 6;
}

static char *word_breaks(void)
{
    return completing_file() ? " \t\n" : NULL;
}

static char **complete(const char *text, int start, int end)
{
    if (completing_file()) {
        rl_attempted_completion_over = 1;
        return rl_completion_matches(text, rl_filename_completion_function);
    }
    rl_attempted_completion_over = 1;
    decref(cand);
    cand = v_list(0);
    const char *line = rl_line_buffer;
    /* the dotted expression ending at the cursor */
    int s = end;
    while (s > 0 && (isalnum((unsigned char)line[s - 1]) || line[s - 1] == '_' || line[s - 1] == '.')) s--;
    const char *word = line + s;
    size_t wlen = (size_t)(end - s);
    if (start == 0 && line[0] == ':') {
        for (int i = 0; cmd_name(i); i++) {
            char c[64];
            snprintf(c, sizeof c, ":%s", cmd_name(i));
            if (!strncmp(c, text, strlen(text))) list_append_steal(cand, v_str(c));
        }
    } else {
        const char *dot = NULL;
        for (size_t i = 0; i < wlen; i++)
            if (word[i] == '.') dot = word + i;
        if (dot) {
            Value *obj = resolve_dotted(word, (size_t)(dot - word));
            if (obj) {
                Value *names = bind_dir_of(obj);
                const char *prefix = dot + 1;
                /* readline's `text` starts after the last word break; rebuild it */
                size_t tb = (size_t)(dot + 1 - (line + start));
                char before[256];
                snprintf(before, sizeof before, "%.*s", (int)tb, line + start);
                if ((size_t)(dot + 1 - line) < (size_t)start) before[0] = 0;
                for (size_t i = 0; i < seq_len(names); i++)
                    cand_add(prefix, seq_get(names, i)->u.s.p, before, strlen(prefix));
                decref(names);
                decref(obj);
            }
        } else {
            size_t plen = strlen(text);
            Value *k;
            for (size_t i = 0; dict_next(eval_globals(), &i, &k, NULL);) cand_add(text, k->u.s.p, "", plen);
            for (size_t i = 0; dict_next(bind_builtins(), &i, &k, NULL);) cand_add(text, k->u.s.p, "", plen);
            for (int i = 0; py_keywords[i]; i++) cand_add(text, py_keywords[i], "", plen);
            if (in_call(line, start) && plen)
                for (int i = 0; common_kwargs[i]; i++) cand_add(text, common_kwargs[i], "", plen);
        }
    }
    sort_values(cand->u.seq.items, seq_len(cand), NULL, false);
    if (seq_len(cand) == 0) return NULL;
    /* a single '=' keyword or a module should not get a trailing space */
    if (seq_len(cand) == 1) {
        const char *c = seq_get(cand, 0)->u.s.p;
        if (c[strlen(c) - 1] == '=') rl_completion_append_character = '\0';
    }
    return rl_completion_matches(text, cand_gen);
}

/* ------------------------------------------------------------ input */

static void buf_append(const char *s)
{
    size_t n = strlen(s);
    if (buflen + n + 2 > bufcap) {
        bufcap = (buflen + n + 2) * 2;
        buf = value_xrealloc(buf, bufcap);
    }
    memcpy(buf + buflen, s, n);
    buflen += n;
    buf[buflen++] = '\n';
    buf[buflen] = 0;
}

static void buf_reset(void)
{
    buflen = 0;
    if (buf) buf[0] = 0;
}

static const char *prompt(void) { return buflen ? "... " : ">>> "; }

/* Forgets a Ctrl-C: the one that ended a statement was reported already,
 * and one that came after it must not fail the next statement. */
static void clear_interrupt(void)
{
    repl_sigint = 0;
    eval_interrupted = 0;
    tsr_interrupted = 0;
}

/* Ends the loop after this line (Ctrl-D, :quit, exit()). */
static void leave(void)
{
    if (done) return;
    done = true;
    rl_callback_handler_remove();
}

static void run_entry(void)
{
    clear_interrupt();
    repl_active = 0;
    bool inc = false;
    eval_source("<stdin>", buf, buflen, true, &inc);
    (void)inc;
    /* a Ctrl-C during the entry was its KeyboardInterrupt: none left pending */
    repl_sigint = 0;
    eval_interrupted = 0;
    tsr_interrupted = 0;
    fflush(stdout);
    buf_reset();
    repl_active = 1;
    clear_interrupt();
    if (eval_exit_requested) leave();
}

/* Runs a ':' command line, or a pasted doctest block, as one entry. */
static void run_special(char *text, bool doctest)
{
    clear_interrupt();
    repl_active = 0;
    if (doctest) {
        int failed = 0;
        cmd_run_text("<stdin>", text, strlen(text), true, &failed);
    } else {
        cmd_run(text);
    }
    fflush(stdout);
    repl_active = 1;
    clear_interrupt();
    if (cmd_quit_requested || eval_exit_requested) leave();
}

/* The block entered so far goes to history as one entry (recalled whole
 * with Up), without its trailing blank lines. */
static void history_add_block(void)
{
    size_t n = buflen;
    while (n && isspace((unsigned char)buf[n - 1])) n--;
    if (!n) return;
    char save = buf[n];
    buf[n] = 0;
    history_add(buf);
    buf[n] = save;
}

static bool is_blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) return false;
    return true;
}

static void on_line(char *line)
{
    if (!line) { /* Ctrl-D */
        putchar('\n');
        if (buflen) {
            /* run what was entered, as Python does at EOF */
            history_add_block();
            run_entry();
        }
        leave();
        return;
    }
    /* a pasted doctest block (several lines, bracketed paste) runs
     * statement by statement, its output lines skipped */
    size_t dlen;
    char *doc = buflen == 0 && strchr(line, '\n') ? cmd_doctest(line, strlen(line), &dlen) : NULL;
    if (doc) {
        history_add(line);
        free(line);
        run_special(doc, true);
        free(doc);
        if (!done) rl_set_prompt(prompt());
        return;
    }
    /* a pasted ">>> " or "... " prompt is stripped */
    char *l = line;
    if (!strncmp(l, ">>> ", 4) || !strncmp(l, "... ", 4)) l += 4;
    else if (!strcmp(l, ">>>") || !strcmp(l, "...")) l += 3;
    if (buflen == 0 && cmd_is_command(l)) {
        history_add(l);
        run_special(l, false);
        free(line);
        if (!done) rl_set_prompt(prompt());
        return;
    }
    if (buflen == 0 && is_blank(l)) { free(line); return; }
    /* "obj?" (as IPython): what help(obj) prints */
    size_t n = strlen(l);
    while (n && isspace((unsigned char)l[n - 1])) n--;
    if (buflen == 0 && n > 1 && l[n - 1] == '?' && !strpbrk(l, "\n#'\"")) {
        history_add(l);
        while (n && l[n - 1] == '?') n--;
        char *cmd = value_xmalloc(n + 7);
        snprintf(cmd, n + 7, ":help %.*s", (int)n, l);
        free(line);
        run_special(cmd, false);
        free(cmd);
        if (!done) rl_set_prompt(prompt());
        return;
    }
    bool multi = strchr(l, '\n') != NULL;
    buf_append(l);
    free(line);
    bool inc = lex_incomplete(buf, buflen);
    /* a block pasted or recalled whole runs at once, as Python 3.13's */
    if (inc && multi) {
        buf_append("");
        inc = lex_incomplete(buf, buflen);
        if (inc) buf[--buflen] = 0;    /* open brackets: take the blank line back */
    }
    if (!inc) {
        history_add_block();
        run_entry();
    }
    if (!done) rl_set_prompt(prompt());
}

/* Auto-indent (Python 3.13): a continuation line starts with the last
 * line's indentation, four more after a line ending in ':'. */
static int pre_input(void)
{
    if (!buflen) return 0;
    size_t e = buflen - 1;     /* the last line ends at buf[e] == '\n' */
    size_t s = e;
    while (s > 0 && buf[s - 1] != '\n') s--;
    size_t ind = 0;
    while (s + ind < e && (buf[s + ind] == ' ' || buf[s + ind] == '\t')) ind++;
    size_t t = e;
    while (t > s && isspace((unsigned char)buf[t - 1])) t--;
    if (t > s && buf[t - 1] == ':') ind += 4;
    if (ind > 64) ind = 64;
    char sp[65];
    memset(sp, ' ', ind);
    sp[ind] = 0;
    if (ind) {
        rl_insert_text(sp);
        rl_redisplay();
    }
    return 0;
}

int repl_run(void)
{
    history_open();
    rl_readline_name = "tsr";
    rl_attempted_completion_function = complete;
    rl_pre_input_hook = pre_input;
    rl_completion_word_break_hook = word_breaks;
    rl_basic_word_break_characters = " \t\n\"\\'`@$><=;|&{(,[+-*/%^~!";
    rl_catch_signals = 0;
    printf("tsr %s \xe2\x80\x94 a tensor calculator with PyTorch's rules. Type :help for help, Ctrl-D to leave.\n",
           TSR_VERSION);
    fflush(stdout);
    eval_opts.interactive = true;
    eval_opts.show_location = false;
    done = false;
    cmd_quit_requested = false;
    repl_session = 1;
    clear_interrupt();
    rl_callback_handler_install(prompt(), on_line);
    repl_active = 1;
    /* SIGINT stays blocked except inside pselect, so a Ctrl-C that lands
     * while a key is being processed is seen before waiting again */
    sigset_t block, orig;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &orig);
    while (!done) {
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(0, &fds);
        int r = repl_sigint ? -1 : pselect(1, &fds, NULL, NULL, NULL, &orig);
        if (repl_sigint) {
            clear_interrupt();
            /* abandon the current input and start a fresh prompt */
            rl_free_line_state();
            rl_callback_sigcleanup();
            rl_crlf();
            fputs("KeyboardInterrupt\n", stdout);
            fflush(stdout);
            buf_reset();
            rl_callback_handler_remove();
            rl_callback_handler_install(prompt(), on_line);
            continue;
        }
        if (r < 0) {
            if (errno == EINTR) continue;
            break;
        }
        /* statements run with SIGINT deliverable, so Ctrl-C interrupts them */
        sigprocmask(SIG_SETMASK, &orig, NULL);
        rl_callback_read_char();
        sigprocmask(SIG_BLOCK, &block, NULL);
    }
    sigprocmask(SIG_SETMASK, &orig, NULL);
    repl_active = 0;
    repl_session = 0;
    decref(cand);
    cand = NULL;
    free(buf);
    buf = NULL;
    buflen = bufcap = 0;
    free(hist_path);
    hist_path = NULL;
    return eval_exit_requested ? eval_exit_status : 0;
}
