/* xnt_capture.h: the C ABI an emulator links to record Xbox 360 GPU (Xenos) work into a .xnt
 * trace. Plain C (C99 and C++), no exceptions cross it: every function returns a status, and
 * xnt_capture_last_error() describes the last failure on the calling thread.
 *
 * Byte order: the guest (PowerPC) is big-endian, and emulators keep guest memory as the guest
 * sees it. Every `bytes`/`dwords_be` argument is therefore RAW GUEST MEMORY (big-endian words stay
 * big-endian); register values are the only host-order (native uint32_t) inputs.
 *
 * Where to call what in a command-processor loop: docs/capture.md. In short: submit a ring
 * segment when the CP starts on it; report memory the GPU reads (textures, vertices, indices,
 * shader microcode, indirect buffers) as the CP finds it; report CPU writes the title made since
 * the last submission before submitting again; call xnt_capture_swap at VdSwap / XE_SWAP.
 *
 * Thread safety: one handle must be used from one thread at a time. */
#ifndef XNT_CAPTURE_H_
#define XNT_CAPTURE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The C API version. It goes up by one when a function, enumerator or documented behaviour is
 * added; it never goes down, and nothing is removed or changed in meaning within one SONAME
 * (libxenotrace-capture.so.1). What may change: docs/capture.md, "ABI stability". */
#define XNT_CAPTURE_API_VERSION 1

/* XNT_CAPTURE_API marks the exported functions. The shared library is built with
 * -fvisibility=hidden and a version script (capture/abi/xnt_capture.map), so these are its only
 * symbols. */
#if defined(_WIN32) && defined(XNT_CAPTURE_BUILDING_SHARED)
#define XNT_CAPTURE_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define XNT_CAPTURE_API __attribute__((visibility("default")))
#else
#define XNT_CAPTURE_API
#endif

typedef struct xnt_capture xnt_capture;

typedef enum xnt_capture_status {
  XNT_CAPTURE_OK = 0,
  XNT_CAPTURE_INVALID_ARGUMENT = 1, /* null handle, range beyond 512 MiB, wrong sizes... */
  XNT_CAPTURE_IO_ERROR = 2,         /* the file could not be created or written */
  XNT_CAPTURE_INTERNAL_ERROR = 3    /* out of memory or a bug */
} xnt_capture_status;

typedef enum xnt_capture_buffer {
  XNT_CAPTURE_RING_BUFFER = 0,    /* a primary ring-buffer segment (read ptr -> write ptr) */
  XNT_CAPTURE_INDIRECT_BUFFER = 1 /* the target of an INDIRECT_BUFFER packet */
} xnt_capture_buffer;

/* Creates `path` (overwritten if present). `source` names the emulator ("my-emu 1.2"); may be
 * NULL. On success *out receives the handle. */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_open(const char* path, uint32_t title_id, const char* source, xnt_capture** out);

/* PM4 dwords the CP fetched from guest physical address `guest_address`, `dword_count` of them,
 * as big-endian bytes (4 * dword_count bytes at `dwords_be`). */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_submit(xnt_capture* capture, xnt_capture_buffer kind, uint32_t guest_address,
                   const void* dwords_be, uint32_t dword_count);

/* Guest memory the GPU read / the CPU wrote / the GPU wrote (informational), raw guest bytes. */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_memory_read(xnt_capture* capture, uint32_t guest_address, const void* bytes,
                        size_t size);
XNT_CAPTURE_API xnt_capture_status
xnt_capture_cpu_write(xnt_capture* capture, uint32_t guest_address, const void* bytes, size_t size);
XNT_CAPTURE_API xnt_capture_status
xnt_capture_gpu_write(xnt_capture* capture, uint32_t guest_address, const void* bytes, size_t size);
/* Memory as it was when the capture began (for a capture started mid-game). */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_initial_memory(xnt_capture* capture, uint32_t guest_address, const void* bytes,
                           size_t size);

/* Register file values for [first_register, first_register + count), host order. */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_registers(xnt_capture* capture, uint32_t first_register, const uint32_t* values,
                      uint32_t count);

/* The whole 10 MiB EDRAM (2048 tiles of 80x16 32-bit samples, samples row-major). */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_edram(xnt_capture* capture, const void* bytes, size_t size);

/* Display gamma: 256 DC_LUT_30_COLOR entries and 3 x 128 DC_LUT_PWL_DATA entries (R, G, B),
 * host order; rw_component 0..2. */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_gamma(xnt_capture* capture, const uint32_t* table_256, const uint32_t* pwl_384,
                  uint8_t rw_component);

/* End of a frame: the front buffer the swap presents. `texture_format` is the Xenos
 * TextureFormat (k_8_8_8_8 = 6). */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_swap(xnt_capture* capture, uint32_t front_buffer_address, uint32_t width,
                 uint32_t height, uint32_t texture_format);

/* A note for people reading the trace (e.g. "level loaded"). */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_annotate(xnt_capture* capture, const char* label, const char* text);

/* Finishes the file (frame index, totals) and frees the handle, also when it fails. */
XNT_CAPTURE_API xnt_capture_status
xnt_capture_close(xnt_capture* capture);

/* What went wrong in the last failing call on this thread ("" if none). Valid until the next
 * call on this thread. */
XNT_CAPTURE_API const char*
xnt_capture_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* XNT_CAPTURE_H_ */
