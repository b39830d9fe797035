#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>
