#ifndef MEDIASHELL_CXXHASH_H
#define MEDIASHELL_CXXHASH_H
#include <xxhash.h>
#endif
