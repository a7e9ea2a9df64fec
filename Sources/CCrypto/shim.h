#ifndef MEDIASHELL_CCRYPTO_H
#define MEDIASHELL_CCRYPTO_H
#include <openssl/evp.h>
#endif
