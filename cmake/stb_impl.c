/* The one translation unit that holds stb's PNG reader (frames are written through libspng). */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"
