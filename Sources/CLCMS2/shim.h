#include <stddef.h>
#include <stdint.h>
#include <lcms2.h>

/* The pixel-format constants are built by function-like macros, which Swift does not import. */
static const cmsUInt32Number grain_TYPE_RGB_8 = TYPE_RGB_8;
