#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
