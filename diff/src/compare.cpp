// Compare(): per-channel errors, SSIM and the FLIP-style metric in one pass over a sliding band of
// rows (in column strips, for the cache). Each input row is converted to float planes, its error
// statistics taken, and kept in a ring of 11 rows; once the rows below an output row are in, the
// four SSIM moments (x, y, x^2 + y^2, xy) are filtered vertically then horizontally, and SSIM and
// the FLIP-style error of that row follow. The arithmetic is in kernels.inc.
#include "xnt/diff/metrics.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "kernels.h"
#include "xnt/base/error.h"

namespace xnt::diff {
namespace {

using kernels::kBlockRows;
using kernels::kRadius;
using kernels::kTaps;  // Wang et al. 2004: 11x11 circular-symmetric Gaussian, sigma 1.5
constexpr double kSigma = 1.5;
constexpr int kMoments = 4;  // mu_x, mu_y, E[x^2 + y^2], E[xy]
constexpr int kRingRows = kTaps + kBlockRows - 1;  // the rows the vertical pass of one block reads

std::array<double, kTaps> GaussianWeights() {
  std::array<double, kTaps> w{};
  double sum = 0;
  for (int i = 0; i < kTaps; ++i) {
    double d = i - kRadius;
    w[size_t(i)] = std::exp(-d * d / (2 * kSigma * kSigma));
    sum += w[size_t(i)];
  }
  for (double& v : w) v /= sum;
  return w;
}

// FLIP's normalizer: HyAB distance between pure green and pure blue, raised to qc = 0.7
// (Andersson et al. 2020, sec. 4.1). Computed once in double.
double LabF(double t) {
  const double d = 6.0 / 29.0;
  return t > d * d * d ? std::cbrt(t) : t / (3 * d * d) + 4.0 / 29.0;
}
void LinearToLab(double r, double g, double b, double lab[3]) {
  double X = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
  double Y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  double Z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
  double fx = LabF(X / 0.95047), fy = LabF(Y), fz = LabF(Z / 1.08883);
  lab[0] = 116 * fy - 16;
  lab[1] = 500 * (fx - fy);
  lab[2] = 200 * (fy - fz);
}
float FlipCmax() {
  double g[3], b[3];
  LinearToLab(0, 1, 0, g);
  LinearToLab(0, 0, 1, b);
  return float(std::pow(std::fabs(g[0] - b[0]) + std::hypot(g[1] - b[1], g[2] - b[2]), 0.7));
}

// Which compared channels hold the same values in both images everywhere (cheap byte compare,
// only when both images have the same layout; rows are compared whole first). SSIM of such a channel is exactly 1 (x == y makes
// numerator and denominator equal), so its filtering can be skipped.
std::array<bool, 4> IdenticalChannels(const Image& a, const Image& b, int nc) {
  std::array<bool, 4> same = {false, false, false, false};
  if (a.type != b.type || a.channels != b.channels) return same;
  same = {true, true, true, true};
  const size_t bpc = BytesPerChannel(a.type), px = a.PixelBytes(), row = size_t(a.width) * px;
  for (int y = 0; y < a.height; ++y) {
    const uint8_t* ra = a.Row(y);
    const uint8_t* rb = b.Row(y);
    if (std::memcmp(ra, rb, row) == 0) continue;
    for (int c = 0; c < nc; ++c) {
      if (!same[size_t(c)]) continue;
      const uint8_t* pa = ra + size_t(c) * bpc;
      const uint8_t* pb = rb + size_t(c) * bpc;
      for (size_t x = 0; x < size_t(a.width) && same[size_t(c)]; ++x)
        for (size_t k = 0; k < bpc; ++k)
          if (pa[x * px + k] != pb[x * px + k]) same[size_t(c)] = false;
    }
    bool any = false;
    for (int c = 0; c < nc; ++c) any = any || same[size_t(c)];
    if (!any) break;
  }
  return same;
}

// The image is processed in vertical strips of kStripWidth columns (plus the filter's halo of
// kRadius columns each side), each strip top to bottom with a ring of the last 11 rows' moments:
// working memory is O(kStripWidth x 11) and the ring stays in the L2 cache. (The strip width also
// fixes the order in which the error sums are accumulated; changing it moves mean/MSE in the
// last bits.)
constexpr int kStripWidth = 384;

class BandComparer {
 public:
  BandComparer(const Image& a, const Image& b, const CompareOptions& options, Metrics& m)
      : a_(a), b_(b), opt_(options), m_(m), w_(a.width), h_(a.height) {
    nc_ = m.channels;
    planes_ = nc_ + 1;  // compared channels + luma (last)
    weights_ = GaussianWeights();
    k_ = &kernels::Get(options.kernels);
    m.kernels = k_->name;
    cmax_ = FlipCmax();
    const std::array<bool, 4> same = IdenticalChannels(a, b, nc_);
    all_same_ = same[0] && same[1] && same[2] && (nc_ < 4 || same[3]);
    rgb_same_ = same[0] && same[1] && same[2];
    for (int p = 0; p < planes_; ++p) {
      // FLIP needs the filtered R, G, B whenever colour differs anywhere.
      const bool flip_needs = opt_.flip && p < 3 && !rgb_same_;
      bool skip = (p == nc_ ? rgb_same_ : same[size_t(p)]) && !flip_needs;
      if (!opt_.ssim) skip = !flip_needs;
      if (opt_.ssim || opt_.flip)
        if (!skip) active_.push_back(p);
    }
    band_ = (opt_.ssim || opt_.flip) && !all_same_;
    // The filter is linear, so the luma means are the BT.601 mix of the R, G, B means, when those
    // are filtered anyway: the luma plane then filters only its two second moments.
    auto is_active = [&](int p) { return std::find(active_.begin(), active_.end(), p) != active_.end(); };
    luma_derived_ = opt_.ssim && is_active(nc_) && is_active(0) && is_active(1) && is_active(2);
    moments_ = opt_.ssim ? kMoments : 2;  // FLIP alone needs only the filtered means
    // Ring slots only for the (plane, moment) pairs that are filtered.
    for (int p : active_)
      for (int q = p == nc_ && luma_derived_ ? 2 : 0; q < moments_; ++q) ring_slot_[p][q] = ring_slots_++;
    const size_t S = size_t(std::min(kStripWidth, w_)), E = S + 2 * kRadius;
    const size_t S8 = (S + 7) / 8 * 8;  // the filters work in chunks of 8 columns
    const size_t P = size_t(planes_);
    pa_.resize(P * E);
    pb_.resize(P * E);
    over_.resize(S);
    absmax_.resize(S);
    if (band_) {
      // 8 spare doubles each, so the data can start on a 64-byte boundary (Aligned): the ring's and
      // the vertical output's vectors then never straddle two cache lines.
      pad_.resize(kMoments * (S8 + 16) + 8);
      ring_.resize(size_t(kRingRows) * size_t(ring_slots_) * S8 + 8);
      vert_.resize(size_t(kBlockRows) * kVertSlots * S8 + 8);
      ssim_row_.resize(S);
      luma_ring_a_.resize(size_t(kRingRows) * E);
      luma_ring_b_.resize(size_t(kRingRows) * E);
      edge_a_.resize(E);
      edge_b_.resize(E);
      flip_scratch_.resize(8 * S);
      flip_row_.resize(S);
    }
    m.work_bytes = (pa_.size() + pb_.size() + absmax_.size() + luma_ring_a_.size() + luma_ring_b_.size() +
                    edge_a_.size() + edge_b_.size() + flip_scratch_.size() + flip_row_.size() + ssim_row_.size()) *
                       sizeof(float) +
                   (pad_.size() + ring_.size() + vert_.size()) * sizeof(double) + over_.size();
  }

  void Run() {
    if (opt_.maps) {
      ErrorMaps& maps = *opt_.maps;
      maps.width = w_;
      maps.height = h_;
      const size_t n = size_t(w_) * size_t(h_);
      maps.max_abs.assign(n, 0.0f);
      maps.flip.assign(opt_.flip ? n : 0, 0.0f);
      maps.ssim_luma.assign(opt_.ssim ? n : 0, 1.0f);
    }
    if (!all_same_) {
      for (int x0 = 0; x0 < w_; x0 += kStripWidth) {
        x0_ = x0;
        sw_ = std::min(kStripWidth, w_ - x0);
        hx0_ = std::max(0, x0 - kRadius);
        ew_ = std::min(w_, x0 + sw_ + kRadius) - hx0_;
        int next_input = 0;
        if (!band_) {
          for (int y = 0; y < h_; ++y) ReadRow(y);
          continue;
        }
        for (int y = 0; y < h_; y += kBlockRows) {
          const int rows = std::min(kBlockRows, h_ - y);
          const int need = std::min(h_ - 1, y + rows - 1 + kRadius);
          while (next_input <= need) ReadRow(next_input++);
          FinishRows(y, rows);
        }
      }
    }
    Finalize();
  }

 private:
  // The first 64-byte boundary in v (v has 8 spare elements for it; vector data is 8-byte aligned).
  static double* Aligned(std::vector<double>& v) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(v.data());
    return v.data() + ((64 - at % 64) % 64) / sizeof(double);
  }
  // Strip-local plane p (ew_ columns, index 0 = image column hx0_).
  float* Plane(std::vector<float>& v, int p) { return v.data() + size_t(p) * size_t(ew_); }
  // Ring of the last 14 input rows' horizontally filtered moment q of plane p: per (p, q) a block
  // of chunks of 8 columns, each chunk holding its 8 values of all 14 rows together (row r at
  // slot r % 14), so the vertical pass reads one run of memory. Ring(row, p, q) is the row's
  // chunk 0; chunk c is kRingStride * c further.
  static constexpr size_t kRingStride = size_t(kRingRows) * 8;
  int Chunks() const { return (sw_ + 7) / 8; }
  double* Ring(int row, int p, int q) {
    return Aligned(ring_) + size_t(ring_slot_[p][q]) * size_t(Chunks()) * kRingStride +
           size_t(row % kRingRows) * 8;
  }
  // Filtered moment q of plane p for row j of the current block (Chunks() * 8 columns).
  // The means of R, G, B (q < 2) keep their own slots for the FLIP-style term and the luma mix; every
  // other (plane, moment) shares four scratch slots, used only between a plane's vertical pass and
  // its SSIM (planes are finished one at a time, R, G, B before alpha and luma).
  static constexpr size_t kVertSlots = 10;
  double* Vert(int j, int p, int q) {
    const size_t slot = p < 3 && q < 2 ? size_t(p * 2 + q) : size_t(6 + q);
    return Aligned(vert_) + (size_t(j) * kVertSlots + slot) * size_t(Chunks()) * 8;
  }
  float* LumaRing(std::vector<float>& ring, int row) {
    return ring.data() + size_t(row % kRingRows) * size_t(ew_);
  }

  static int TypeIndex(PixelType t) { return t == PixelType::kU8 ? 0 : t == PixelType::kU16 ? 1 : 2; }

  // Asks for the strip's part of row y of both images ahead of time: within a strip, rows are
  // a whole image row apart, too far for the hardware prefetcher to follow.
  void Prefetch(int y) {
    if (y >= h_) return;
    const size_t bytes_a = size_t(ew_) * a_.PixelBytes(), bytes_b = size_t(ew_) * b_.PixelBytes();
    const uint8_t* pa = a_.Row(y) + size_t(hx0_) * a_.PixelBytes();
    const uint8_t* pb = b_.Row(y) + size_t(hx0_) * b_.PixelBytes();
    for (size_t i = 0; i < bytes_a; i += 64) __builtin_prefetch(pa + i);
    for (size_t i = 0; i < bytes_b; i += 64) __builtin_prefetch(pb + i);
  }

  void ReadRow(int y) {
    const int off = x0_ - hx0_;
    Prefetch(y + 4);
    k_->unpack(a_.Row(y) + size_t(hx0_) * a_.PixelBytes(), TypeIndex(a_.type), a_.channels, nc_, pa_.data(),
               size_t(ew_), ew_);
    k_->unpack(b_.Row(y) + size_t(hx0_) * b_.PixelBytes(), TypeIndex(b_.type), b_.channels, nc_, pb_.data(),
               size_t(ew_), ew_);
    std::fill_n(over_.begin(), sw_, uint8_t(0));
    std::fill_n(absmax_.begin(), sw_, 0.0f);
    for (int p = 0; p < nc_; ++p) {
      kernels::RowStats st = k_->error_row(Plane(pa_, p) + off, Plane(pb_, p) + off, sw_,
                                           opt_.pixel_threshold[size_t(p)], over_.data(), absmax_.data());
      sum_abs_[p] += st.sum;
      sum_sq_[p] += st.sum_sq;
      m_.channel[size_t(p)].pixels_over += st.over;
      m_.channel[size_t(p)].max_abs = std::max(m_.channel[size_t(p)].max_abs, double(st.max));
    }
    uint32_t row_over = 0, row_diff = 0;
    const float row_max = k_->row_summary(over_.data(), absmax_.data(), sw_, &row_over, &row_diff);
    m_.pixels_over += row_over;
    m_.pixels_differing += row_diff;
    // The first pixel in reading order holds the maximum: a tie replaces it only from an earlier row
    // (strips run left to right, so a later strip's tie on the same row is further right). Only
    // then is the row searched for the position.
    if (row_max > 0 && (double(row_max) > m_.max_abs || (double(row_max) == m_.max_abs && y < m_.max_y))) {
      m_.max_abs = row_max;
      m_.max_y = y;
      m_.max_x = x0_ + int(std::find(absmax_.begin(), absmax_.begin() + sw_, row_max) - absmax_.begin());
    }
    if (opt_.maps) std::copy_n(absmax_.begin(), sw_, opt_.maps->max_abs.begin() + long(y) * w_ + x0_);
    if (!band_) return;

    // Luma straight into the rings the Sobel filter reads.
    float* la = LumaRing(luma_ring_a_, y);
    float* lb = LumaRing(luma_ring_b_, y);
    k_->luma(Plane(pa_, 0), Plane(pa_, 1), Plane(pa_, 2), la, ew_);
    k_->luma(Plane(pb_, 0), Plane(pb_, 1), Plane(pb_, 2), lb, ew_);
    // Moments of the row (widened to double once), clamped to the edge where the strip touches the
    // image border, then the horizontal pass into the ring. Each moment's row is padded to whole
    // chunks (the extra outputs are unused) and starts on a 64-byte boundary.
    const int P = Chunks() * 8 + 16;
    const int first = x0_ - kRadius;  // image column of pad index 0
    const int lead = hx0_ - first;    // pad indices before the first column we hold (image edge)
    const int tail = P - lead - ew_;  // and after the last
    double* m[kMoments];
    for (int q = 0; q < kMoments; ++q) m[q] = Aligned(pad_) + size_t(q) * size_t(P);
    for (int p : active_) {
      int q0 = 0;
      if (p == nc_) {
        // Luma moments in double from the channels (moments_ is 4 here: luma is active only for SSIM).
        const float* c[6] = {Plane(pa_, 0), Plane(pa_, 1), Plane(pa_, 2), Plane(pb_, 0), Plane(pb_, 1), Plane(pb_, 2)};
        q0 = luma_derived_ ? 2 : 0;
        k_->luma_moments(c, luma_derived_ ? nullptr : m[0] + lead, luma_derived_ ? nullptr : m[1] + lead, m[2] + lead,
                         m[3] + lead, ew_);
      } else {
        k_->moments(Plane(pa_, p), Plane(pb_, p), m[0] + lead, m[1] + lead, moments_ > 2 ? m[2] + lead : nullptr,
                    moments_ > 2 ? m[3] + lead : nullptr, ew_);
      }
      for (int q = q0; q < moments_; ++q) {
        for (int i = 0; i < lead; ++i) m[q][i] = m[q][lead];
        for (int i = 0; i < tail; ++i) m[q][lead + ew_ + i] = m[q][lead + ew_ - 1];
        k_->filter_row(m[q], Ring(y, p, q), Chunks(), kRingStride, weights_.data());
      }
    }
  }

  // Vertical pass over the ring's horizontally filtered moments for output rows [y0, y0 + rows),
  // then SSIM and the FLIP-style error of each row.
  void FinishRows(int y0, int rows) {
    const double* in[kRingRows];
    double* out[kBlockRows];
    // Plane by plane, so SSIM reads the plane's filtered moments while they are still in the L1
    // cache; luma comes last (active_ is ascending), after the R, G, B means it may be mixed from.
    for (int p : active_) {
      const bool derived = p == nc_ && luma_derived_;
      for (int q = derived ? 2 : 0; q < moments_; ++q) {
        for (int k = 0; k < kRingRows; ++k) in[k] = Ring(std::clamp(y0 - kRadius + k, 0, h_ - 1), p, q);
        for (int j = 0; j < rows; ++j) out[j] = Vert(j, p, q);
        if (rows == kBlockRows)
          k_->filter_column4(in, out, Chunks(), kRingStride, weights_.data());
        else
          k_->filter_column(in, out, rows, Chunks(), kRingStride, weights_.data());
      }
      if (derived)
        for (int j = 0; j < rows; ++j)
          for (int q = 0; q < 2; ++q) k_->luma_mix(Vert(j, 0, q), Vert(j, 1, q), Vert(j, 2, q), Vert(j, nc_, q), sw_);
      if (!opt_.ssim) continue;
      for (int j = 0; j < rows; ++j) {
        float* s = ssim_row_.data();
        ssim_sum_[p] += k_->ssim_row(Vert(j, p, 0), Vert(j, p, 1), Vert(j, p, 2), Vert(j, p, 3), s, sw_);
        if (opt_.maps && p == nc_)
          std::copy_n(s, sw_, opt_.maps->ssim_luma.begin() + long(y0 + j) * w_ + x0_);
      }
    }
    if (opt_.flip && !rgb_same_)
      for (int j = 0; j < rows; ++j) FlipRow(y0 + j, j);
  }

  void FlipRow(int y, int j) {
    const int off = x0_ - hx0_;
    const float* la[3];
    const float* lb[3];
    for (int k = 0; k < 3; ++k) {
      int r = std::clamp(y - 1 + k, 0, h_ - 1);
      la[k] = LumaRing(luma_ring_a_, r);
      lb[k] = LumaRing(luma_ring_b_, r);
    }
    // Sobel over the strip with its halo: clamping at the array ends is right at the image edges,
    // and at inner strip edges only columns with real neighbours are used.
    k_->sobel(la, edge_a_.data(), ew_);
    k_->sobel(lb, edge_b_.data(), ew_);
    kernels::FlipInputs in{};
    // Filtered means of R, G, B of A (moment 0) and B (moment 1).
    in.ra = Vert(j, 0, 0);
    in.ga = Vert(j, 1, 0);
    in.ba = Vert(j, 2, 0);
    in.rb = Vert(j, 0, 1);
    in.gb = Vert(j, 1, 1);
    in.bb = Vert(j, 2, 1);
    in.ea = edge_a_.data() + off;
    in.eb = edge_b_.data() + off;
    in.cmax = cmax_;
    in.scratch = flip_scratch_.data();
    float* e = flip_row_.data();
    k_->flip_row(in, e, sw_);
    float row_max = 0;
    flip_sum_ += k_->sum_max(e, sw_, &row_max);
    m_.flip_max = std::max(m_.flip_max, double(row_max));
    if (opt_.maps) std::copy_n(e, sw_, opt_.maps->flip.begin() + long(y) * w_ + x0_);
  }

  void Finalize() {
    const double n = double(w_) * double(h_);
    double total_sq = 0, total_abs = 0;
    m_.min_channel_psnr = std::numeric_limits<double>::infinity();
    for (int p = 0; p < nc_; ++p) {
      ChannelMetrics& c = m_.channel[size_t(p)];
      c.mean_abs = sum_abs_[p] / n;
      c.mse = sum_sq_[p] / n;
      c.psnr = c.mse > 0 ? 10 * std::log10(1.0 / c.mse) : std::numeric_limits<double>::infinity();
      m_.min_channel_psnr = std::min(m_.min_channel_psnr, c.psnr);
      total_sq += c.mse;
      total_abs += c.mean_abs;
    }
    m_.mean_abs = total_abs / nc_;
    double mse = total_sq / nc_;
    m_.psnr = mse > 0 ? 10 * std::log10(1.0 / mse) : std::numeric_limits<double>::infinity();
    m_.exact = m_.pixels_differing == 0;
    if (m_.exact) m_.max_x = m_.max_y = -1;
    m_.has_ssim = opt_.ssim;
    m_.has_flip = opt_.flip;
    if (opt_.ssim) {
      auto plane_ssim = [&](int p) {
        return std::find(active_.begin(), active_.end(), p) != active_.end() && band_ ? ssim_sum_[p] / n : 1.0;
      };
      m_.ssim_luma = plane_ssim(nc_);
      m_.ssim_min = m_.ssim_luma;
      for (int p = 0; p < nc_; ++p) {
        m_.channel[size_t(p)].ssim = plane_ssim(p);
        m_.ssim_min = std::min(m_.ssim_min, m_.channel[size_t(p)].ssim);
      }
    }
    if (opt_.flip) m_.flip_mean = flip_sum_ / n;
  }

  const Image& a_;
  const Image& b_;
  const CompareOptions& opt_;
  Metrics& m_;
  int w_, h_, nc_ = 3, planes_ = 4, moments_ = kMoments;
  int x0_ = 0, sw_ = 0, hx0_ = 0, ew_ = 0;  // current strip: first column, width, halo start, halo width
  bool all_same_ = false, rgb_same_ = false, band_ = false, luma_derived_ = false;
  int ring_slot_[5][kMoments] = {};  // index into the ring per filtered (plane, moment)
  int ring_slots_ = 0;
  std::vector<int> active_;  // planes that get SSIM moments
  std::array<double, kTaps> weights_{};
  const kernels::Kernels* k_ = nullptr;
  float cmax_ = 1;
  std::vector<float> ssim_row_, pa_, pb_, absmax_, luma_ring_a_, luma_ring_b_, edge_a_, edge_b_, flip_scratch_, flip_row_;
  std::vector<double> pad_, ring_, vert_;
  std::vector<uint8_t> over_;
  double sum_abs_[4] = {}, sum_sq_[4] = {}, ssim_sum_[5] = {}, flip_sum_ = 0;
};

}  // namespace

uint64_t HashPixels(const Image& image) {
  image.Validate("image");
  std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> state(XXH3_createState(), XXH3_freeState);
  if (!state) throw Error("out of memory creating a hash state");
  XXH3_64bits_reset(state.get());
  const uint32_t header[4] = {uint32_t(image.width), uint32_t(image.height), uint32_t(image.channels),
                              uint32_t(image.type)};
  XXH3_64bits_update(state.get(), header, sizeof(header));
  const size_t row_bytes = size_t(image.width) * image.PixelBytes();
  for (int y = 0; y < image.height; ++y) XXH3_64bits_update(state.get(), image.Row(y), row_bytes);
  return XXH3_64bits_digest(state.get());
}

Metrics Compare(const Image& a, const Image& b, const CompareOptions& options) {
  a.Validate("first image");
  b.Validate("second image");
  if (a.width != b.width || a.height != b.height)
    throw Error("image sizes differ: " + std::to_string(a.width) + "x" + std::to_string(a.height) + " vs " +
                std::to_string(b.width) + "x" + std::to_string(b.height) +
                " (use a scale or resize mode to compare across scales)");
  for (float t : options.pixel_threshold)
    if (!(t >= 0)) throw Error("pixel threshold must be >= 0");
  Metrics m;
  m.width = a.width;
  m.height = a.height;
  m.channels = (!options.ignore_alpha && (a.HasAlpha() || b.HasAlpha())) ? 4 : 3;
  m.hash_a = HashPixels(a);
  m.hash_b = HashPixels(b);
  BandComparer(a, b, options, m).Run();
  return m;
}

}  // namespace xnt::diff
