#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>
