#define _GNU_SOURCE
#include <unistd.h>
#include "CMediaShellShim.h"

int msh_syncfs(int fd) { return syncfs(fd); }
