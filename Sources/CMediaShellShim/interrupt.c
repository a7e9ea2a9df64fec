#include "CMediaShellShim.h"
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <string.h>
#include <pthread.h>
#include <errno.h>

static volatile sig_atomic_t msh_interrupted = 0;
static volatile sig_atomic_t msh_termination_signal = 0;
static volatile sig_atomic_t msh_resized = 0;
static int msh_interrupt_pipe[2] = {-1, -1};

static void msh_on_sigint(int signo) {
    (void)signo;
    int saved = errno;
    msh_interrupted = 1;
    if (msh_interrupt_pipe[1] >= 0) {
        char byte = 1;
        ssize_t ignored = write(msh_interrupt_pipe[1], &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

/* SIGTERM, SIGHUP: the running command stops as on Ctrl-C and the shell closes and exits; a second one
   while it closes exits at once. */
static void msh_on_termination(int signo) {
    if (msh_termination_signal != 0) _exit(128 + signo);
    msh_termination_signal = signo;
    msh_on_sigint(signo);
}

static void msh_on_sigwinch(int signo) {
    (void)signo;
    msh_resized = 1;
}

static int msh_install(int signo, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: a blocked read must return EINTR */
    return sigaction(signo, &action, NULL);
}

int msh_install_interrupt_handler(void) {
    if (msh_interrupt_pipe[0] < 0) {
        int fds[2];
        if (pipe(fds) != 0) return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
            fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        }
        msh_interrupt_pipe[1] = fds[1];
        msh_interrupt_pipe[0] = fds[0];
    }
    if (msh_install(SIGINT, msh_on_sigint) != 0) return -1;
    return msh_interrupt_pipe[0];
}

int msh_interrupt_pending(void) { return msh_interrupted != 0; }

void msh_clear_interrupt(void) {
    /* Once the shell is terminating, every later command is stopped too. */
    if (msh_termination_signal != 0) return;
    msh_interrupted = 0;
    if (msh_interrupt_pipe[0] >= 0) {
        char buffer[64];
        while (read(msh_interrupt_pipe[0], buffer, sizeof buffer) > 0) {}
    }
}

int msh_install_termination_handler(void) {
    int fd = msh_install_interrupt_handler();
    if (fd < 0) return -1;
    if (msh_install(SIGTERM, msh_on_sigint) != 0) return -1;
    return fd;
}

int msh_install_shell_termination_handlers(void) {
    if (msh_install(SIGTERM, msh_on_termination) != 0) return -1;
    return msh_install(SIGHUP, msh_on_termination);
}

int msh_termination_signal_received(void) { return msh_termination_signal; }

int msh_install_resize_handler(void) { return msh_install(SIGWINCH, msh_on_sigwinch); }

int msh_take_resize(void) {
    int resized = msh_resized != 0;
    msh_resized = 0;
    return resized;
}

int msh_unblock_terminal_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    int signals[] = {SIGINT, SIGWINCH, SIGTSTP, SIGCONT, SIGTTIN, SIGTTOU, SIGQUIT, SIGHUP, SIGTERM};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(&set, signals[i]);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
