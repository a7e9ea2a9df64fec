#ifndef MEDIASHELL_CEDITLINE_H
#define MEDIASHELL_CEDITLINE_H
#include <stdio.h>
#include <histedit.h>
#endif
