// glTF animations -> scene: each animation checked (channels, samplers, accessors, key times) and
// its 30 fps samples budgeted before anything is allocated for them, then sampled, either at once
// (an eager read) or one animation at a time on demand (a deferred read: scene::AnimationSampler).
// The budgets are bytes the samples hold (docs/safety.md "Memory"), not a ratio to the file's
// size: boneyard's export keeps only the ends of runs of equal keys, so what a real file samples
// to has no fixed relation to its size.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "boneyard/core/limits.h"
#include "gltf_reader_internal.h"

namespace boneyard::gltf::detail {

namespace {

// One channel's sampler: its accessors (slots of the animation's distinct accessors, decoded
// once per animation however many channels name them) and how it interpolates.
struct Source {
  std::uint32_t times = 0, values = 0;  // slots in Plan::accessors
  Interpolation interp = Interpolation::linear;
  std::uint8_t width = 3;
  bool rotation = false;
};

// One of an animation's distinct accessors, checked: what sampling decodes again.
struct PlanAccessor {
  std::int64_t index = 0;
  int width = 1;
  AccessorView view;
};

// What sampling an animation needs once its checks passed: its accessors, a source per kept
// channel (in the order of the scene's channels), the first sample time and the sample count.
struct Plan {
  std::vector<PlanAccessor> accessors;
  std::vector<Source> sources;
  double t0 = 0;
  std::size_t frames = 0;
};

// The decoded values of a plan's accessors, by slot.
using Decoded = std::vector<FloatValues>;

// The first pass over an animation's accessors: checked, charged against the read's decode
// budget and decoded once per animation. `slot_of_` (one entry per accessor of the file) is the
// read's, and only the entries an animation touched are reset after it.
class AccessorSlots {
 public:
  explicit AccessorSlots(std::size_t accessors) : slot_of_(accessors, -1) {}
  // Accessor `index` as floats of `width` components, in `plan` and `decoded`; its slot in `slot`.
  // `where` is put together only for an error (its path is prefixed to the finding's).
  template <class Where>
  std::optional<Finding> get(const Model& m, std::int64_t index, int width, Plan& plan, Decoded& decoded,
                             std::uint32_t& slot, const Where& where) {
    const bool known = index >= 0 && std::size_t(index) < slot_of_.size() && slot_of_[std::size_t(index)] >= 0;
    if (known && plan.accessors[std::size_t(slot_of_[std::size_t(index)])].width == width) {
      slot = std::uint32_t(slot_of_[std::size_t(index)]);
      return std::nullopt;
    }
    FloatValues values;
    if (auto e = read_floats(m, index, width, {}, values)) {
      e->path = where() + e->path;
      return e;
    }
    slot = std::uint32_t(plan.accessors.size());
    if (!known && index >= 0 && std::size_t(index) < slot_of_.size()) slot_of_[std::size_t(index)] = int(slot);
    plan.accessors.push_back({index, width, values.view});
    decoded.push_back(std::move(values));
    return std::nullopt;
  }
  void reset(const Plan& plan) {
    for (const auto& a : plan.accessors)
      if (a.index >= 0 && std::size_t(a.index) < slot_of_.size()) slot_of_[std::size_t(a.index)] = -1;
  }

 private:
  std::vector<int> slot_of_;
};

// What the 30 fps sampler has taken so far in this read (docs/safety.md "Memory").
struct SamplingBudget {
  std::uint64_t frames = 0;  // sampled so far, all animations
  std::uint64_t bytes = 0;   // of samples (values and sample times), all animations
};

// The first sampler whose key times fall between the sample times (t0 + i / fps), and the key
// rate it was written at: reported once per file, since resampling changes such motions.
struct OffGrid {
  std::string where;
  double rate = 0;
};

// Once per file: which rate the keys have and what to do about it.
void warn_off_grid(const OffGrid& off, double fps, Diagnostics& warnings) {
  char grid[32], step[48], rate[64];
  std::snprintf(grid, sizeof grid, "%g fps", fps);
  std::snprintf(step, sizeof step, "key times at multiples of 1/%g s", fps);
  if (off.rate > 0) std::snprintf(rate, sizeof rate, "keys at about %.4g fps", off.rate);
  else std::snprintf(rate, sizeof rate, "uneven key times");
  warnings.add(Severity::warning, 0, off.where,
               std::string("key times are not on the ") + grid + " grid, so the keys were resampled (which moves them); "
               "set the scene to " + grid + " before importing the glTF into the DCC tool (Blender: Output Properties > "
               "Frame Rate) and export it again", step, rate);
}

std::string whole_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

std::string bytes_text(std::uint64_t bytes) {
  char b[64];
  if (bytes >= (std::uint64_t{1} << 30) && bytes % (std::uint64_t{1} << 30) == 0)
    std::snprintf(b, sizeof b, "%llu bytes (%llu GiB)", static_cast<unsigned long long>(bytes),
                  static_cast<unsigned long long>(bytes >> 30));
  else if (bytes % (std::uint64_t{1} << 20) == 0)
    std::snprintf(b, sizeof b, "%llu bytes (%llu MiB)", static_cast<unsigned long long>(bytes),
                  static_cast<unsigned long long>(bytes >> 20));
  else
    std::snprintf(b, sizeof b, "%llu bytes", static_cast<unsigned long long>(bytes));
  return b;
}

// The animation's frame count against the limits for one animation and for the read, and the
// bytes its samples take: `samples` per channel (1 for a held animation), each `values_per_frame`
// floats plus the sample time.
std::optional<Finding> check_sampling(const std::string& aw, double t0, double t1, double frames_d, std::size_t samples,
                                      std::size_t values_per_frame, SamplingBudget& budget) {
  if (!(frames_d >= 1 && frames_d <= double(kMaxMotionFrames)))
    return error(aw, "animation too long to sample (key times from " + whole_number(t0) + " s to " +
                         whole_number(t1) + " s)",
                 "<= " + frames_text(kMaxMotionFrames), whole_number(frames_d) + " frames");
  budget.frames += static_cast<std::uint64_t>(frames_d);
  if (budget.frames > kMaxTotalFrames)
    return error(aw, "animations too long in total to sample (the limit is for all animations of one file)",
                 "<= " + frames_text(kMaxTotalFrames) + " in all", std::to_string(budget.frames) + " frames up to here");
  // values_per_frame is bounded by the channels the JSON lists, so nothing here overflows.
  const std::uint64_t bytes = std::uint64_t(samples) * (std::uint64_t(values_per_frame) + 1) * sizeof(float);
  if (bytes > kMaxSampledBytesPerAnimation)
    return error(aw, "animation samples to more data than one animation may hold (frames x channel values at 30 fps)",
                 "<= " + bytes_text(kMaxSampledBytesPerAnimation),
                 bytes_text(bytes) + ": " + std::to_string(samples) + " frames x " + std::to_string(values_per_frame) +
                     " values");
  budget.bytes += bytes;
  if (budget.bytes > kMaxSampledBytesPerRead)
    return error(aw, "animations sample to more data in all than one file may (frames x channel values at 30 fps)",
                 "<= " + bytes_text(kMaxSampledBytesPerRead) + " in all", bytes_text(budget.bytes) + " up to here");
  return std::nullopt;
}

// True when every key of the sampler carries the same value: one sample says all it means.
bool holds_one_value(const Source& s, const Decoded& d) {
  const FloatValues& times = d[s.times];
  if (s.interp == Interpolation::cubic_spline) return times.size == 1;  // tangents could still move it
  const float* v = d[s.values].data;
  for (std::size_t k = 1; k < times.size; ++k)
    if (!std::equal(v, v + s.width, v + k * s.width)) return false;
  return true;
}

// Whether the key times fall on the sample times (t0 + i / fps); the first sampler whose do not,
// and its key rate, is reported once per file.
template <class Where>
void check_time_grid(const FloatValues& times, double t0, double fps, const Where& where, OffGrid& off) {
  if (!off.where.empty()) return;
  constexpr double kFrameTolerance = 1e-3;  // of a frame: float key times i / fps are within 1e-5
  double shortest = INFINITY;
  bool on_grid = true;
  for (std::size_t k = 0; k < times.size; ++k) {
    const double frame = (double(times.data[k]) - t0) * fps;
    on_grid = on_grid && std::fabs(frame - std::round(frame)) <= kFrameTolerance;
    if (k > 0) shortest = std::min(shortest, double(times.data[k]) - double(times.data[k - 1]));
  }
  if (on_grid) return;
  off.where = where();
  off.rate = std::isfinite(shortest) && shortest > 0 ? 1.0 / shortest : 0;
}

// Samples every source of `plan` (its accessors decoded in `d`) into the animation's timeline and
// channels, which hold no values yet.
void take_samples(const Plan& plan, const Decoded& d, double fps, scene::Animation& out) {
  scene::Timeline tl;
  tl.times.resize(plan.frames);
  for (std::size_t i = 0; i < plan.frames; ++i) tl.times[i] = float(plan.t0 + double(i) / fps);
  out.timelines.clear();
  out.timelines.push_back(std::move(tl));
  for (std::size_t c = 0; c < plan.sources.size(); ++c) {
    const Source& s = plan.sources[c];
    const FloatValues& times = d[s.times];
    const FloatValues& values = d[s.values];
    auto& ch = out.channels[c];
    ch.timeline = 0;
    ch.values.resize(plan.frames * s.width);
    for (std::size_t i = 0; i < plan.frames; ++i)
      evaluate(times.data, times.size, values.data, s.width, s.interp, s.rotation, plan.t0 + double(i) / fps,
               ch.values.data() + i * s.width);
  }
}

// The checks of one animation and its channels without values; `plan` gets what sampling needs,
// `decoded` its accessors' values. Messages are put together only when one is needed: a model
// can have hundreds of thousands of channels.
std::optional<Finding> describe_animation(const Model& m, std::size_t ai, const ReadOptions& o, Diagnostics& warnings,
                                          SamplingBudget& budget, OffGrid& off_grid, AccessorSlots& slots, Plan& plan,
                                          Decoded& decoded, scene::Animation& out) {
  const Json& a = array_of(m.json, "animations")[ai];
  const Json& nodes = array_of(m.json, "nodes");
  out.name = string_of(a, "name");
  if (out.name.empty()) out.name = "animation_" + std::to_string(ai);
  set_extras(out.extras, a);
  const std::string aw = "animation " + in_quotes(out.name);
  static const AnimationArrays kNone;
  const AnimationArrays& arrays = ai < m.arrays.animations.size() ? m.arrays.animations[ai] : kNone;
  const auto& channels_json = arrays.channels;
  const auto& samplers = arrays.samplers;
  if (channels_json.empty()) return error(aw, "animation has no channels", ">= 1 channel", "0");
  out.channels.reserve(channels_json.size());
  plan.sources.reserve(channels_json.size());
  double t0 = INFINITY, t1 = -INFINITY;
  for (std::size_t ci = 0; ci < channels_json.size(); ++ci) {
    const ChannelRecord& ch = channels_json[ci];
    const std::int64_t node = or_fallback(ch.node, -2);
    const std::string& path = ch.path;
    const bool node_ok = node >= 0 && std::size_t(node) < nodes.size();
    const auto where = [&] {
      const std::string node_name = node_ok ? in_quotes(string_of(nodes[std::size_t(node)], "name")) : std::to_string(node);
      return aw + " channel " + std::to_string(ci) + " (node " + node_name + " " + path + ")";
    };
    if (!node_ok)
      return error(where(), "channel targets a node that does not exist", "< " + std::to_string(nodes.size()),
                   std::to_string(node));
    scene::Channel c;
    c.joint = static_cast<std::uint32_t>(node);
    Source s;
    if (path == "translation") c.path = scene::Channel::Path::translation, s.width = 3;
    else if (path == "rotation") c.path = scene::Channel::Path::rotation, s.width = 4, s.rotation = true;
    else if (path == "scale") c.path = scene::Channel::Path::scale, s.width = 3;
    else {
      warnings.add(Severity::warning, 0, where(), "channel path not supported; ignored", "translation, rotation or scale", path);
      continue;
    }
    const std::int64_t si = or_fallback(ch.sampler, -2);
    if (si < 0 || std::size_t(si) >= samplers.size())
      return error(where(), "sampler index out of range", "< " + std::to_string(samplers.size()), std::to_string(si));
    const SamplerRecord& smp = samplers[std::size_t(si)];
    const std::string& interp = smp.interpolation;
    if (interp == "STEP") s.interp = Interpolation::step;
    else if (interp == "CUBICSPLINE") s.interp = Interpolation::cubic_spline;
    else if (!interp.empty() && interp != "LINEAR")
      return error(where(), "unknown interpolation", "LINEAR, STEP or CUBICSPLINE", interp);
    const std::size_t first_new = plan.accessors.size();
    if (auto e = slots.get(m, or_fallback(smp.input, -2), 1, plan, decoded, s.times, [&] { return where() + " input"; }))
      return e;
    const FloatValues& times = decoded[s.times];
    if (s.times >= first_new)  // checked once per accessor
      for (std::size_t k = 1; k < times.size; ++k)
        if (!(times.data[k] > times.data[k - 1]))
          return error(where() + " input", "key times do not increase",
                       "time[" + std::to_string(k) + "] > " + std::to_string(times.data[k - 1]),
                       std::to_string(times.data[k]));
    if (auto e = slots.get(m, or_fallback(smp.output, -2), s.width, plan, decoded, s.values,
                           [&] { return where() + " output"; }))
      return e;
    const FloatValues& key_times = decoded[s.times];  // taken again: the output may have grown `decoded`
    const FloatValues& values = decoded[s.values];
    const std::size_t per_key = s.interp == Interpolation::cubic_spline ? 3 : 1;
    if (values.size != key_times.size * s.width * per_key)
      return error(where() + " output", "output count does not match the key times",
                   std::to_string(key_times.size * per_key), std::to_string(values.size / s.width));
    t0 = std::min(t0, double(key_times.data[0]));
    t1 = std::max(t1, double(key_times.data[key_times.size - 1]));
    out.channels.push_back(std::move(c));
    plan.sources.push_back(s);
  }
  if (out.channels.empty()) return error(aw, "animation has no usable channels", "translation, rotation or scale", "none");
  std::vector<bool> grid_checked(plan.accessors.size(), false);
  for (std::size_t c = 0; c < plan.sources.size(); ++c) {
    const std::uint32_t t = plan.sources[c].times;
    if (grid_checked[t]) continue;  // the same key times as an earlier channel's
    grid_checked[t] = true;
    check_time_grid(decoded[t], t0, o.fps, [&] { return aw + " channel " + std::to_string(c); }, off_grid);
  }
  // Frame count from the duration, bounded before anything is allocated for it. An animation
  // whose channels all hold one value is sampled once (its length stays in `duration`).
  const double frames_d = std::round((t1 - t0) * o.fps) + 1;
  out.duration = t1 - t0;
  const bool held =
      std::all_of(plan.sources.begin(), plan.sources.end(), [&](const Source& x) { return holds_one_value(x, decoded); });
  std::size_t values_per_frame = 0;
  for (const Source& x : plan.sources) values_per_frame += x.width;
  const std::size_t samples = held || !(frames_d >= 1) ? 1 : frames_d > double(kMaxMotionFrames)
                                                                 ? std::size_t(kMaxMotionFrames) + 1
                                                                 : static_cast<std::size_t>(frames_d);
  if (auto e = check_sampling(aw, t0, t1, frames_d, samples, values_per_frame, budget)) return e;
  plan.t0 = t0;
  plan.frames = samples;
  out.frames = samples;
  return std::nullopt;
}

// The animations of a deferred read: their checked accessor views into the buffers it keeps open.
class DeferredSampler final : public scene::AnimationSampler {
 public:
  DeferredSampler(double fps, std::vector<Plan> plans, KeptBuffers buffers)
      : fps_(fps), plans_(std::move(plans)), buffers_(std::move(buffers)) {}

  Status sample(std::size_t index, scene::Animation& animation) const override {
    if (index >= plans_.size() || animation.channels.size() != plans_[index].sources.size())
      return error("animation " + std::to_string(index), "animation is not one of the read's",
                   "< " + std::to_string(plans_.size()), std::to_string(index));
    const Plan& plan = plans_[index];
    Decoded decoded(plan.accessors.size());
    for (std::size_t k = 0; k < plan.accessors.size(); ++k) {
      const PlanAccessor& a = plan.accessors[k];
      if (auto e = decode_floats(a.view, a.index, a.width, "animation " + in_quotes(animation.name), decoded[k]))
        return *e;
    }
    take_samples(plan, decoded, fps_, animation);
    return {};
  }

 private:
  double fps_;
  std::vector<Plan> plans_;
  KeptBuffers buffers_;  // what the accessor views point into
};

}  // namespace

std::optional<Finding> read_animations(Model& m, const ReadOptions& o, Diagnostics& warnings, KeptBuffers* deferred,
                                       scene::Scene& s) {
  const Json& animations = array_of(m.json, "animations");
  SamplingBudget budget;
  OffGrid off_grid;
  AccessorSlots slots(m.arrays.accessors.size());
  std::vector<Plan> plans(deferred ? animations.size() : 0);
  s.animations.resize(animations.size());
  for (std::size_t a = 0; a < animations.size(); ++a) {
    Plan plan;
    Decoded decoded;
    auto e = describe_animation(m, a, o, warnings, budget, off_grid, slots, plan, decoded, s.animations[a]);
    slots.reset(plan);
    if (e) return e;
    if (!deferred) take_samples(plan, decoded, o.fps, s.animations[a]);
    else plans[a] = std::move(plan);
  }
  if (!off_grid.where.empty()) warn_off_grid(off_grid, o.fps, warnings);
  if (deferred && !animations.empty()) s.sampler = std::make_shared<DeferredSampler>(o.fps, std::move(plans), std::move(*deferred));
  return std::nullopt;
}

}  // namespace boneyard::gltf::detail
