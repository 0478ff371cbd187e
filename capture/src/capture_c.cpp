// The C ABI (xnt_capture.h) over Recorder. Every entry point catches everything: no C++
// exception may unwind into an emulator's C code.
#include "xnt_capture.h"

#include <ctime>
#include <new>
#include <stdexcept>
#include <string>

#include "xnt/base/error.h"
#include "xnt/capture/recorder.h"

struct xnt_capture {
  std::unique_ptr<xnt::capture::Recorder> recorder;
};

namespace {

thread_local std::string g_last_error;

xnt_capture_status Fail(xnt_capture_status status, const std::string& message) {
  g_last_error = message;
  return status;
}

template <typename F>
xnt_capture_status Guard(const char* function, F&& f) {
  try {
    f();
    return XNT_CAPTURE_OK;
  } catch (const std::invalid_argument& e) {
    return Fail(XNT_CAPTURE_INVALID_ARGUMENT, std::string(function) + ": " + e.what());
  } catch (const std::logic_error& e) {
    return Fail(XNT_CAPTURE_INVALID_ARGUMENT, std::string(function) + ": " + e.what());
  } catch (const xnt::Error& e) {
    return Fail(XNT_CAPTURE_IO_ERROR, std::string(function) + ": " + e.what());
  } catch (const std::bad_alloc&) {
    return Fail(XNT_CAPTURE_INTERNAL_ERROR, std::string(function) + ": out of memory");
  } catch (const std::exception& e) {
    return Fail(XNT_CAPTURE_INTERNAL_ERROR, std::string(function) + ": " + e.what());
  } catch (...) {
    return Fail(XNT_CAPTURE_INTERNAL_ERROR, std::string(function) + ": unknown failure");
  }
}

xnt::capture::Recorder& Get(xnt_capture* capture) {
  if (!capture || !capture->recorder) throw std::invalid_argument("null capture handle");
  return *capture->recorder;
}

std::span<const uint8_t> Bytes(const void* p, size_t size) {
  if (!p && size) throw std::invalid_argument("null data pointer");
  return {static_cast<const uint8_t*>(p), size};
}

}  // namespace

extern "C" {

xnt_capture_status xnt_capture_open(const char* path, uint32_t title_id, const char* source,
                                    xnt_capture** out) {
  return Guard(__func__, [&] {
    if (!path || !out) throw std::invalid_argument("path and out must not be null");
    *out = nullptr;
    xnt::format::TraceInfo info;
    info.title_id = title_id;
    info.capture_source = source ? source : "xnt_capture";
    info.creation_time_unix = uint64_t(std::time(nullptr));
    auto handle = std::make_unique<xnt_capture>();
    handle->recorder = xnt::capture::Recorder::Create(path, info);
    *out = handle.release();
  });
}

xnt_capture_status xnt_capture_submit(xnt_capture* capture, xnt_capture_buffer kind,
                                      uint32_t guest_address, const void* dwords_be,
                                      uint32_t dword_count) {
  return Guard(__func__, [&] {
    auto& r = Get(capture);
    const auto bytes = Bytes(dwords_be, size_t(dword_count) * 4);
    if (kind == XNT_CAPTURE_RING_BUFFER) {
      r.SubmitBigEndian(guest_address, bytes);
    } else if (kind == XNT_CAPTURE_INDIRECT_BUFFER) {
      r.SubmitIndirect(guest_address, bytes);
    } else {
      throw std::invalid_argument("unknown buffer kind " + std::to_string(int(kind)));
    }
  });
}

xnt_capture_status xnt_capture_memory_read(xnt_capture* capture, uint32_t guest_address,
                                           const void* bytes, size_t size) {
  return Guard(__func__, [&] { Get(capture).MemoryRead(guest_address, Bytes(bytes, size)); });
}

xnt_capture_status xnt_capture_cpu_write(xnt_capture* capture, uint32_t guest_address,
                                         const void* bytes, size_t size) {
  return Guard(__func__, [&] { Get(capture).CpuWrite(guest_address, Bytes(bytes, size)); });
}

xnt_capture_status xnt_capture_gpu_write(xnt_capture* capture, uint32_t guest_address,
                                         const void* bytes, size_t size) {
  return Guard(__func__, [&] { Get(capture).GpuWrite(guest_address, Bytes(bytes, size)); });
}

xnt_capture_status xnt_capture_initial_memory(xnt_capture* capture, uint32_t guest_address,
                                              const void* bytes, size_t size) {
  return Guard(__func__, [&] { Get(capture).InitialMemory(guest_address, Bytes(bytes, size)); });
}

xnt_capture_status xnt_capture_registers(xnt_capture* capture, uint32_t first_register,
                                         const uint32_t* values, uint32_t count) {
  return Guard(__func__, [&] {
    if (!values && count) throw std::invalid_argument("null values");
    Get(capture).Registers(first_register, std::span<const uint32_t>(values, count));
  });
}

xnt_capture_status xnt_capture_edram(xnt_capture* capture, const void* bytes, size_t size) {
  return Guard(__func__, [&] { Get(capture).Edram(Bytes(bytes, size)); });
}

xnt_capture_status xnt_capture_gamma(xnt_capture* capture, const uint32_t* table_256,
                                     const uint32_t* pwl_384, uint8_t rw_component) {
  return Guard(__func__, [&] {
    if (!table_256 || !pwl_384) throw std::invalid_argument("null gamma table");
    xnt::format::GammaRamp g;
    g.table.assign(table_256, table_256 + 256);
    g.pwl.assign(pwl_384, pwl_384 + 384);
    g.rw_component = rw_component;
    Get(capture).Gamma(g);
  });
}

xnt_capture_status xnt_capture_swap(xnt_capture* capture, uint32_t front_buffer_address,
                                    uint32_t width, uint32_t height, uint32_t texture_format) {
  return Guard(__func__, [&] {
    Get(capture).Swap(front_buffer_address, width, height, texture_format);
  });
}

xnt_capture_status xnt_capture_annotate(xnt_capture* capture, const char* label,
                                        const char* text) {
  return Guard(__func__, [&] {
    Get(capture).Annotate(label ? label : "", text ? text : "");
  });
}

xnt_capture_status xnt_capture_close(xnt_capture* capture) {
  std::unique_ptr<xnt_capture> owned(capture);
  return Guard(__func__, [&] { Get(capture).Finish(); });
}

const char* xnt_capture_last_error(void) { return g_last_error.c_str(); }

}  // extern "C"
