#ifndef MEDIASHELL_CTURBOJPEG_H
#define MEDIASHELL_CTURBOJPEG_H
#include <turbojpeg.h>
#endif
