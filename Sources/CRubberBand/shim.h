// Rubber Band's C interface (Debian's librubberband-dev to build, librubberband2 to run): tempo
// change without a change of pitch, for the callers who speak faster or slower.
#include <rubberband/rubberband-c.h>
