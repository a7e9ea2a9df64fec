#include <sys/prctl.h>
#include "CMediaShellShim.h"

int msh_set_minimal_timer_slack(void) {
    return prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) == 0 ? 0 : -1;
}

long msh_timer_slack(void) {
    return (long)prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
}
