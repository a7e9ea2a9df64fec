#ifndef MEDIASHELL_CEDITLINE_H
#define MEDIASHELL_CEDITLINE_H
#include <stdio.h>
#include <wchar.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <histedit.h>

/* One-line, stateless wrappers for libedit's variadic el_set / el_get / history calls,
   which Swift cannot call. Each names the request it makes. */

/* el_init with the process's stdin, stdout and stderr (Swift 6 rejects glibc's FILE globals). */
static inline EditLine *msh_el_init(const char *program) { return el_init(program, stdin, stdout, stderr); }
/* EL_PROMPT */
static inline int msh_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) { return el_set(el, EL_PROMPT, prompt); }
/* EL_EDITOR ("emacs" or "vi") */
static inline int msh_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }
/* EL_SIGNAL: libedit restores the terminal when a signal arrives during el_gets */
static inline int msh_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }
/* EL_HIST with libedit's own history function */
static inline int msh_el_set_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }
/* EL_ADDFN */
static inline int msh_el_add_function(EditLine *el, const char *name, const char *help,
                                      unsigned char (*function)(EditLine *, int)) {
    return el_set(el, EL_ADDFN, name, help, function);
}
/* EL_BIND key -> function name */
static inline int msh_el_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, NULL);
}
/* EL_CLIENTDATA set / get */
static inline int msh_el_set_client_data(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }
static inline void *msh_el_client_data(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}
/* EL_GETCFN: the function libedit calls to read one character */
static inline int msh_el_set_read_function(EditLine *el, int (*read)(EditLine *, wchar_t *)) {
    return el_set(el, EL_GETCFN, read);
}
/* EL_PREP_TERM: put the terminal in libedit's raw mode now (1) or back to cooked mode (0) */
static inline int msh_el_prep_term(EditLine *el, int on) { return el_set(el, EL_PREP_TERM, on); }
/* EL_REFRESH: forget what is on the screen and draw the prompt and line afresh at the cursor */
static inline int msh_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }
/* EL_GETTC "co": the terminal width in columns, or 0 when unknown */
static inline int msh_el_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns, NULL) != 0) return 0;
    return columns;
}

/* history() requests */
static inline int msh_history_set_size(History *h, HistEvent *ev, int size) { return history(h, ev, H_SETSIZE, size); }
static inline int msh_history_set_unique(History *h, HistEvent *ev, int on) { return history(h, ev, H_SETUNIQUE, on); }
static inline int msh_history_enter(History *h, HistEvent *ev, const char *line) { return history(h, ev, H_ENTER, line); }
static inline int msh_history_load(History *h, HistEvent *ev, const char *path) { return history(h, ev, H_LOAD, path); }
static inline int msh_history_save_fp(History *h, HistEvent *ev, FILE *fp) { return history(h, ev, H_SAVE_FP, fp); }
/* H_SAVE_FP into a file in memory (memfd: libedit fchmods the stream, so a memstream will not do): the
   history as libedit writes its file, on a descriptor at its end; -1 on failure. The caller reads it from
   offset 0 and closes it. */
static inline int msh_history_save_to_memory(History *h, HistEvent *ev) {
    int fd = (int)syscall(SYS_memfd_create, "mediashell-history", 0);
    if (fd < 0) return -1;
    int kept = dup(fd);
    FILE *fp = fdopen(fd, "w");
    if (kept < 0 || fp == NULL) {
        if (fp != NULL) fclose(fp); else close(fd);
        if (kept >= 0) close(kept);
        return -1;
    }
    int saved = history(h, ev, H_SAVE_FP, fp);
    if (fclose(fp) != 0 || saved < 0) {
        close(kept);
        return -1;
    }
    return kept;
}
/* H_LAST is the oldest entry; H_PREV moves towards newer ones. */
static inline int msh_history_oldest(History *h, HistEvent *ev) { return history(h, ev, H_LAST); }
static inline int msh_history_newer(History *h, HistEvent *ev) { return history(h, ev, H_PREV); }
#endif
