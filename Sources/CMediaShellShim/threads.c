#define _GNU_SOURCE
#include <pthread.h>
#include "CMediaShellShim.h"

int msh_name_thread(pthread_t thread, const char *name) {
    return pthread_setname_np(thread, name);
}
