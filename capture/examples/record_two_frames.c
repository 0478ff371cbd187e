/* record_two_frames.c: what an emulator does to record Xbox 360 GPU work with xnt_capture.h,
 * reduced to a program that runs on its own (C99). It plays a tiny "title" for two frames and
 * records everything the way a command-processor loop would (docs/capture.md):
 *
 *   start (mid-game)   registers, EDRAM, gamma ramp, memory that already held data
 *   each frame         the CPU writes the front buffer and a command buffer (CPU writes between
 *                      submissions), the CP executes a ring-buffer segment that sets texture fetch
 *                      constant 0 (which describes the front buffer) and calls an indirect buffer;
 *                      the indirect buffer writes a fence (MEM_WRITE: a GPU write) and swaps
 *                      (XE_SWAP); the swap reads the front buffer (a GPU memory read)
 *   after frame 0      an annotation
 *
 * Build against the installed package: `cc record_two_frames.c $(pkg-config --cflags --libs
 * xenotrace-capture)` or CMake's find_package(XenotraceCapture) (CMakeLists.txt here).
 * Run: `record_two_frames out.xnt`, then `xenotrace replay out.xnt --out frames --path cpu`
 * writes frame_0000.png (a gradient) and frame_0001.png (the same with a white square). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xnt_capture.h>

/* Guest physical addresses of this pretend title. */
#define RING_ADDRESS 0x00010000u     /* the primary ring buffer */
#define IB_ADDRESS 0x00020000u       /* an indirect buffer the ring calls */
#define FENCE_ADDRESS 0x00030000u    /* where MEM_WRITE stores the frame number */
#define FRONT_BUFFER 0x00100000u     /* 4 KiB aligned: texture base addresses are */
#define WIDTH 64u
#define HEIGHT 64u

/* Xenos facts used below (register indices, PM4 opcodes, texture fetch constant fields). */
#define REG_SCRATCH_REG0 0x0578u
#define REG_FETCH_CONSTANT_0 0x4800u /* texture fetch constant 0: 6 dwords */
#define OP_MEM_WRITE 0x3Du
#define OP_INDIRECT_BUFFER 0x3Fu
#define OP_XE_SWAP 0x64u
#define SWAP_SIGNATURE 0x53574150u   /* 'SWAP' */
#define FORMAT_8_8_8_8 6u
#define ENDIAN_8IN32 2u

#define CHECK(call)                                                                  \
  do {                                                                               \
    if ((call) != XNT_CAPTURE_OK) {                                                  \
      fprintf(stderr, "%s failed: %s\n", #call, xnt_capture_last_error());           \
      if (capture) xnt_capture_close(capture);                                       \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

/* Guest memory is big-endian: the emulator's copy holds words as the PowerPC wrote them. */
static void put_be32(uint8_t* p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* PM4 packet headers: type 0 writes `count` registers from `index`; type 3 runs an opcode. */
static uint32_t type0(uint32_t index, uint32_t count) { return ((count - 1) << 16) | index; }
static uint32_t type3(uint32_t opcode, uint32_t count) {
  return (3u << 30) | ((count - 1) << 16) | (opcode << 8);
}

/* A command buffer being written in guest memory (big-endian dwords). */
typedef struct {
  uint8_t bytes[256];
  uint32_t dwords;
} stream;

static void emit(stream* s, uint32_t dword) {
  put_be32(s->bytes + 4 * s->dwords, dword);
  s->dwords++;
}

/* The 64x64 k_8_8_8_8 front buffer, linear, 8-in-32 endian: word = A<<24 | B<<16 | G<<8 | R. */
static void draw_front_buffer(uint8_t* fb, int frame) {
  uint32_t x, y;
  for (y = 0; y < HEIGHT; ++y) {
    for (x = 0; x < WIDTH; ++x) {
      uint32_t r = x * 4, g = y * 4, b = frame ? 160u : 40u;
      if (frame == 1 && x >= 24 && x < 40 && y >= 24 && y < 40) r = g = b = 255;
      put_be32(fb + 4 * (y * WIDTH + x), 0xFF000000u | (b << 16) | (g << 8) | r);
    }
  }
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "two_frames.xnt";
  static uint8_t front_buffer[WIDTH * HEIGHT * 4];
  xnt_capture* capture = NULL;
  uint8_t* edram;
  uint32_t fetch[6];
  int frame;

  printf("xnt_capture.h API version %d\n", XNT_CAPTURE_API_VERSION);
  CHECK(xnt_capture_open(path, 0x58540001u /* title id */, "record_two_frames example",
                         &capture));

  /* ---- Start of a capture taken mid-game: the state the GPU already had. ---- */
  {
    /* Registers, host order (only SCRATCH_REG0 here; an emulator passes its whole file). */
    const uint32_t scratch[1] = {0x12345678u};
    CHECK(xnt_capture_registers(capture, REG_SCRATCH_REG0, scratch, 1));
  }
  /* EDRAM: always the whole 10 MiB (2048 tiles x 80x16 samples x 4 bytes). */
  edram = (uint8_t*)calloc(10u << 20, 1);
  if (!edram) return 1;
  memset(edram, 0x40, 80 * 16 * 4); /* tile 0 holds something from before the capture */
  if (xnt_capture_edram(capture, edram, 10u << 20) != XNT_CAPTURE_OK) {
    fprintf(stderr, "xnt_capture_edram: %s\n", xnt_capture_last_error());
    free(edram);
    xnt_capture_close(capture);
    return 1;
  }
  free(edram);
  {
    /* Gamma: 256 DC_LUT_30_COLOR entries (10 bits per channel) and 3 x 128 PWL entries (base
     * << 16 | delta), an identity ramp, host order. */
    static uint32_t table[256], pwl[384];
    uint32_t i;
    for (i = 0; i < 256; ++i) {
      uint32_t v = i * 1023 / 255;
      table[i] = (v << 20) | (v << 10) | v;
    }
    for (i = 0; i < 384; ++i) pwl[i] = ((i % 128) * 512u << 16) | 512u;
    CHECK(xnt_capture_gamma(capture, table, pwl, 0));
  }
  /* Memory that held data before the capture started (the fence word). */
  {
    uint8_t fence[4];
    put_be32(fence, 0xFFFFFFFFu);
    CHECK(xnt_capture_initial_memory(capture, FENCE_ADDRESS, fence, sizeof fence));
  }

  /* Texture fetch constant 0 describes the front buffer for the swap (as D3D's VdSwap sets it):
   * 2D texture, pitch 64 (in 32-texel units), linear, k_8_8_8_8, 8-in-32, 64x64, XYZW. */
  fetch[0] = 2u /* texture */ | (2u << 10) | (2u << 13) | (2u << 16) | ((WIDTH / 32) << 22);
  fetch[1] = FORMAT_8_8_8_8 | (ENDIAN_8IN32 << 6) | FRONT_BUFFER;
  fetch[2] = (WIDTH - 1) | ((HEIGHT - 1) << 13);
  fetch[3] = (0x688u << 1) | (2u << 23);
  fetch[4] = 0;
  fetch[5] = 1u << 9; /* 2D */

  for (frame = 0; frame < 2; ++frame) {
    stream ring, ib;
    uint8_t fence[4];
    uint32_t i;
    const uint32_t ring_address = RING_ADDRESS + (uint32_t)frame * 256u;
    ring.dwords = ib.dwords = 0;

    /* The title's CPU draws the frame and writes the indirect buffer: CPU writes, reported
     * before the submission that reads them. */
    draw_front_buffer(front_buffer, frame);
    CHECK(xnt_capture_cpu_write(capture, FRONT_BUFFER, front_buffer, sizeof front_buffer));

    emit(&ib, type3(OP_MEM_WRITE, 2)); /* fence = frame number */
    emit(&ib, FENCE_ADDRESS | ENDIAN_8IN32);
    emit(&ib, (uint32_t)frame);
    emit(&ib, type3(OP_XE_SWAP, 4));
    emit(&ib, SWAP_SIGNATURE);
    emit(&ib, FRONT_BUFFER);
    emit(&ib, WIDTH);
    emit(&ib, HEIGHT);
    CHECK(xnt_capture_cpu_write(capture, IB_ADDRESS, ib.bytes, ib.dwords * 4u));

    emit(&ring, type0(REG_FETCH_CONSTANT_0, 6));
    for (i = 0; i < 6; ++i) emit(&ring, fetch[i]);
    emit(&ring, type0(REG_SCRATCH_REG0, 1));
    emit(&ring, (uint32_t)frame);
    emit(&ring, type3(OP_INDIRECT_BUFFER, 2));
    emit(&ring, IB_ADDRESS);
    emit(&ring, ib.dwords);
    CHECK(xnt_capture_cpu_write(capture, ring_address, ring.bytes, ring.dwords * 4u));

    /* CP_RB_WPTR moved: the CP executes the new ring segment. */
    CHECK(xnt_capture_submit(capture, XNT_CAPTURE_RING_BUFFER, ring_address, ring.bytes,
                             ring.dwords));
    /* ... and, while executing it, finds the INDIRECT_BUFFER packet ... */
    CHECK(xnt_capture_submit(capture, XNT_CAPTURE_INDIRECT_BUFFER, IB_ADDRESS, ib.bytes,
                             ib.dwords));
    /* ... whose XE_SWAP scans out the front buffer: memory the GPU reads, recorded ahead of
     * the pending submission (report reads before the first GPU write of a submission) ... */
    CHECK(xnt_capture_memory_read(capture, FRONT_BUFFER, front_buffer, sizeof front_buffer));
    /* ... and whose MEM_WRITE stored the fence (informational: the replay re-executes it). */
    put_be32(fence, (uint32_t)frame);
    CHECK(xnt_capture_gpu_write(capture, FENCE_ADDRESS, fence, sizeof fence));

    /* VdSwap executed: the frame ends. */
    CHECK(xnt_capture_swap(capture, FRONT_BUFFER, WIDTH, HEIGHT, FORMAT_8_8_8_8));
    if (frame == 0) CHECK(xnt_capture_annotate(capture, "example", "frame 0 swapped"));
  }

  if (xnt_capture_close(capture) != XNT_CAPTURE_OK) {
    fprintf(stderr, "xnt_capture_close: %s\n", xnt_capture_last_error());
    return 1;
  }
  printf("wrote %s: 2 frames of %ux%u\n", path, WIDTH, HEIGHT);
  return 0;
}
