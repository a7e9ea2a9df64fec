#include "CMediaShellShim.h"
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <string.h>
#include <pthread.h>

static volatile sig_atomic_t msh_interrupted = 0;
static int msh_interrupt_pipe[2] = {-1, -1};

static void msh_on_sigint(int signo) {
    (void)signo;
    msh_interrupted = 1;
    if (msh_interrupt_pipe[1] >= 0) {
        char byte = 1;
        ssize_t ignored = write(msh_interrupt_pipe[1], &byte, 1);
        (void)ignored;
    }
}

int msh_install_interrupt_handler(void) {
    if (msh_interrupt_pipe[0] < 0) {
        if (pipe(msh_interrupt_pipe) != 0) return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(msh_interrupt_pipe[i], F_SETFL, fcntl(msh_interrupt_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(msh_interrupt_pipe[i], F_SETFD, FD_CLOEXEC);
        }
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = msh_on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: a blocked read must return EINTR */
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    return msh_interrupt_pipe[0];
}

int msh_interrupt_pending(void) { return msh_interrupted != 0; }

void msh_clear_interrupt(void) {
    msh_interrupted = 0;
    if (msh_interrupt_pipe[0] >= 0) {
        char buffer[64];
        while (read(msh_interrupt_pipe[0], buffer, sizeof buffer) > 0) {}
    }
}

int msh_install_termination_handler(void) {
    int fd = msh_install_interrupt_handler();
    if (fd < 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = msh_on_sigint;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGTERM, &action, NULL) != 0) return -1;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    return fd;
}
