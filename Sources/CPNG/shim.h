#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <png.h>
