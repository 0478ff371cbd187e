/* ABI check of xnt_capture.h (capture_abi_layout test), compiled as C99 with -pedantic-errors
 * and linked to the shared libxenotrace-capture. What an emulator binary built against API
 * version 1 relies on is pinned here: the version macro, the size and value of every enum, and
 * the exact type of every function (an assignment to a pointer of the old type stops compiling if
 * a parameter changes). The header has no public structs: the handle is opaque, so its layout may
 * change freely. A failure here means an incompatible change: see docs/capture.md, "ABI
 * stability" (new SONAME) — or, for an addition, extend this file. */
#include <stdio.h>
#include <string.h>

#include <xnt_capture.h>

/* C99 has no _Static_assert: a negative array size fails the compile. */
#define ABI_ASSERT(name, cond) typedef char abi_assert_##name[(cond) ? 1 : -1]

ABI_ASSERT(api_version, XNT_CAPTURE_API_VERSION >= 1);
ABI_ASSERT(status_size, sizeof(xnt_capture_status) == 4);
ABI_ASSERT(buffer_size, sizeof(xnt_capture_buffer) == 4);
ABI_ASSERT(ok, XNT_CAPTURE_OK == 0);
ABI_ASSERT(invalid_argument, XNT_CAPTURE_INVALID_ARGUMENT == 1);
ABI_ASSERT(io_error, XNT_CAPTURE_IO_ERROR == 2);
ABI_ASSERT(internal_error, XNT_CAPTURE_INTERNAL_ERROR == 3);
ABI_ASSERT(ring, XNT_CAPTURE_RING_BUFFER == 0);
ABI_ASSERT(indirect, XNT_CAPTURE_INDIRECT_BUFFER == 1);
/* Types of the arguments the functions take by value (LP64 / ILP32 alike). */
ABI_ASSERT(u32, sizeof(uint32_t) == 4);
ABI_ASSERT(u8, sizeof(uint8_t) == 1);

typedef xnt_capture_status (*open_fn)(const char*, uint32_t, const char*, xnt_capture**);
typedef xnt_capture_status (*submit_fn)(xnt_capture*, xnt_capture_buffer, uint32_t, const void*,
                                        uint32_t);
typedef xnt_capture_status (*memory_fn)(xnt_capture*, uint32_t, const void*, size_t);
typedef xnt_capture_status (*registers_fn)(xnt_capture*, uint32_t, const uint32_t*, uint32_t);
typedef xnt_capture_status (*edram_fn)(xnt_capture*, const void*, size_t);
typedef xnt_capture_status (*gamma_fn)(xnt_capture*, const uint32_t*, const uint32_t*, uint8_t);
typedef xnt_capture_status (*swap_fn)(xnt_capture*, uint32_t, uint32_t, uint32_t, uint32_t);
typedef xnt_capture_status (*annotate_fn)(xnt_capture*, const char*, const char*);
typedef xnt_capture_status (*close_fn)(xnt_capture*);
typedef const char* (*last_error_fn)(void);

int main(void) {
  /* API version 1: 13 functions. */
  const open_fn open_capture = xnt_capture_open;
  const submit_fn submit = xnt_capture_submit;
  const memory_fn memory[4] = {xnt_capture_memory_read, xnt_capture_cpu_write,
                               xnt_capture_gpu_write, xnt_capture_initial_memory};
  const registers_fn registers = xnt_capture_registers;
  const edram_fn edram = xnt_capture_edram;
  const gamma_fn gamma = xnt_capture_gamma;
  const swap_fn swap = xnt_capture_swap;
  const annotate_fn annotate = xnt_capture_annotate;
  const close_fn close_capture = xnt_capture_close;
  const last_error_fn last_error = xnt_capture_last_error;
  xnt_capture* capture = NULL;
  int i;

  /* The functions resolve in the shared library and keep their documented error behaviour. */
  if (open_capture(NULL, 0, NULL, &capture) != XNT_CAPTURE_INVALID_ARGUMENT || capture != NULL ||
      strlen(last_error()) == 0) {
    fprintf(stderr, "xnt_capture_open(NULL) did not fail as documented: %s\n", last_error());
    return 1;
  }
  if (submit(NULL, XNT_CAPTURE_RING_BUFFER, 0, NULL, 0) != XNT_CAPTURE_INVALID_ARGUMENT ||
      registers(NULL, 0, NULL, 0) != XNT_CAPTURE_INVALID_ARGUMENT ||
      edram(NULL, NULL, 0) != XNT_CAPTURE_INVALID_ARGUMENT ||
      gamma(NULL, NULL, NULL, 0) != XNT_CAPTURE_INVALID_ARGUMENT ||
      swap(NULL, 0, 1, 1, 6) != XNT_CAPTURE_INVALID_ARGUMENT ||
      annotate(NULL, "a", "b") != XNT_CAPTURE_INVALID_ARGUMENT) {
    fprintf(stderr, "a null handle was not rejected: %s\n", last_error());
    return 1;
  }
  for (i = 0; i < 4; ++i) {
    if (memory[i](NULL, 0, NULL, 0) != XNT_CAPTURE_INVALID_ARGUMENT) {
      fprintf(stderr, "memory function %d accepted a null handle\n", i);
      return 1;
    }
  }
  (void)close_capture;
  printf("xnt_capture ABI (API version %d): enums and 13 function types as pinned\n",
         XNT_CAPTURE_API_VERSION);
  return 0;
}
