/* Uses xnt_capture.h from C (this file is compiled as C): records a small trace the way an
 * emulator would and checks the error reporting. capture_recorder_test.cpp reads the result. */
#include <stdio.h>
#include <string.h>

#include "xnt_capture.h"

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      snprintf(message, message_size, "%s:%d: %s (%s)", __FILE__, __LINE__, #cond,   \
               xnt_capture_last_error());                                            \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

int xnt_test_capture_c_api(const char* path, char* message, size_t message_size) {
  xnt_capture* capture = NULL;
  /* Errors: bad arguments and an impossible path. */
  CHECK(xnt_capture_open(NULL, 0, NULL, &capture) == XNT_CAPTURE_INVALID_ARGUMENT);
  CHECK(strlen(xnt_capture_last_error()) > 0);
  CHECK(xnt_capture_open("/nonexistent-dir/x.xnt", 0, NULL, &capture) == XNT_CAPTURE_IO_ERROR);
  CHECK(capture == NULL);
  CHECK(xnt_capture_swap(NULL, 0, 1, 1, 6) == XNT_CAPTURE_INVALID_ARGUMENT);
  CHECK(strstr(xnt_capture_last_error(), "null capture handle") != NULL);

  CHECK(xnt_capture_open(path, 0x41560817u, "c-api-test", &capture) == XNT_CAPTURE_OK);
  {
    uint32_t regs[3] = {320u, 0u, 0x7FFu};
    CHECK(xnt_capture_registers(capture, 0x2000, regs, 3) == XNT_CAPTURE_OK);
  }
  {
    /* The CP starts on a ring segment: type-0 write of RB_SURFACE_INFO, then a DRAW_INDX_2
     * (auto, triangle list of 3), as big-endian bytes like guest memory holds them. */
    const unsigned char ring[] = {0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x01, 0x40,
                                  0xC0, 0x00, 0x36, 0x00, 0x00, 0x03, 0x00, 0x84};
    const unsigned char vertices[8] = {0x3F, 0x80, 0, 0, 0x40, 0, 0, 0};
    CHECK(xnt_capture_submit(capture, XNT_CAPTURE_RING_BUFFER, 0x00080000, ring, 4) ==
          XNT_CAPTURE_OK);
    /* While executing it, the GPU reads vertices: recorded ahead of the submission. */
    CHECK(xnt_capture_memory_read(capture, 0x00060000, vertices, sizeof vertices) ==
          XNT_CAPTURE_OK);
  }
  {
    const unsigned char data[4] = {1, 2, 3, 4};
    /* Out of range: 512 MiB is the end of guest physical memory. */
    CHECK(xnt_capture_memory_read(capture, 0x1FFFFFFEu, data, 4) == XNT_CAPTURE_INVALID_ARGUMENT);
    CHECK(strstr(xnt_capture_last_error(), "512 MiB") != NULL);
    CHECK(xnt_capture_submit(capture, XNT_CAPTURE_RING_BUFFER, 0, data, 0) ==
          XNT_CAPTURE_INVALID_ARGUMENT);
    CHECK(xnt_capture_edram(capture, data, 4) == XNT_CAPTURE_INVALID_ARGUMENT);
    CHECK(xnt_capture_cpu_write(capture, 0x00100000, data, 4) == XNT_CAPTURE_OK);
  }
  CHECK(xnt_capture_annotate(capture, "marker", "frame 0") == XNT_CAPTURE_OK);
  CHECK(xnt_capture_swap(capture, 0x00200000, 320, 240, 6) == XNT_CAPTURE_OK);
  CHECK(xnt_capture_close(capture) == XNT_CAPTURE_OK);
  return 0;
}
