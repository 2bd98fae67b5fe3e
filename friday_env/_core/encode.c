/* encode.c: placeholder until the part lands. */
#include "friday.h"
