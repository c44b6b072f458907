// glTF 2.0 -> neutral scene: nodes, skin and animations sampled at 30 fps (the container, buffers
// and checked accessors are gltf_container.cpp; meshes gltf_mesh_reader.cpp). The JSON is read with
// nlohmann::json in one pass, so extras are taken as parsed (exact integers and floats).
#include "boneyard/gltf/gltf_read.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "boneyard/core/limits.h"
#include "gltf_reader_internal.h"

namespace boneyard::gltf {

namespace {

using namespace detail;

// Shepperd's method on a 3x3 rotation m[row][col] (column vectors).
Quat quat_from_rotation(const double m[3][3]) {
  const double tr = m[0][0] + m[1][1] + m[2][2];
  double x, y, z, w;
  if (tr > 0) {
    const double s = std::sqrt(tr + 1.0) * 2;
    w = 0.25 * s, x = (m[2][1] - m[1][2]) / s, y = (m[0][2] - m[2][0]) / s, z = (m[1][0] - m[0][1]) / s;
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const double s = std::sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]) * 2;
    w = (m[2][1] - m[1][2]) / s, x = 0.25 * s, y = (m[0][1] + m[1][0]) / s, z = (m[0][2] + m[2][0]) / s;
  } else if (m[1][1] > m[2][2]) {
    const double s = std::sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]) * 2;
    w = (m[0][2] - m[2][0]) / s, x = (m[0][1] + m[1][0]) / s, y = 0.25 * s, z = (m[1][2] + m[2][1]) / s;
  } else {
    const double s = std::sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]) * 2;
    w = (m[1][0] - m[0][1]) / s, x = (m[0][2] + m[2][0]) / s, y = (m[1][2] + m[2][1]) / s, z = 0.25 * s;
  }
  return scene::normalized({float(x), float(y), float(z), float(w)});
}

// Numbers of an optional fixed-size array member; nullopt when absent, error text when malformed.
std::optional<std::string> numbers(const Json& j, const char* key, std::size_t n, std::vector<double>& out) {
  out.clear();
  const Json* v = member(j, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_array() || v->size() != n) return std::string(key) + " must have " + std::to_string(n) + " numbers";
  for (const auto& x : *v) {
    if (!x.is_number()) return std::string(key) + " must hold numbers";  // NaN is written as null
    const double d = x.get<double>();
    if (!std::isfinite(d)) return "non-finite " + std::string(key);
    out.push_back(d);
  }
  return std::nullopt;
}

std::optional<Finding> read_node(const Json& n, std::size_t index, scene::Joint& j) {
  j.name = string_of(n, "name");
  const std::string where = "node " + std::to_string(index) + " (" + in_quotes(j.name) + ")";
  set_extras(j.extras, n);
  std::vector<double> c;
  if (auto e = numbers(n, "matrix", 16, c)) return error(where, *e);
  if (c.size() == 16) {  // column-major
    j.translation = {float(c[12]), float(c[13]), float(c[14])};
    double sx = std::hypot(c[0], c[1], c[2]), sy = std::hypot(c[4], c[5], c[6]), sz = std::hypot(c[8], c[9], c[10]);
    if (sx == 0 || sy == 0 || sz == 0) return error(where, "singular matrix", "non-zero scale", "zero column");
    const double det = c[0] * (c[5] * c[10] - c[9] * c[6]) - c[4] * (c[1] * c[10] - c[9] * c[2]) +
                       c[8] * (c[1] * c[6] - c[5] * c[2]);
    if (det < 0) sx = -sx;  // a mirror goes into the scale, the rest is a proper rotation
    const double r[3][3] = {{c[0] / sx, c[4] / sy, c[8] / sz}, {c[1] / sx, c[5] / sy, c[9] / sz},
                            {c[2] / sx, c[6] / sy, c[10] / sz}};
    j.rotation = quat_from_rotation(r);
    j.scale = {float(sx), float(sy), float(sz)};
    return std::nullopt;
  }
  if (auto e = numbers(n, "translation", 3, c)) return error(where, *e);
  if (c.size() == 3) j.translation = {float(c[0]), float(c[1]), float(c[2])};
  if (auto e = numbers(n, "rotation", 4, c)) return error(where, *e);
  if (c.size() == 4) j.rotation = scene::normalized({float(c[0]), float(c[1]), float(c[2]), float(c[3])});
  if (auto e = numbers(n, "scale", 3, c)) return error(where, *e);
  if (c.size() == 3) j.scale = {float(c[0]), float(c[1]), float(c[2])};
  return std::nullopt;
}

// Sampled channel data gathered before resampling; the arrays live in the animation's
// AccessorCache (channels commonly share one key-time accessor).
struct Source {
  const std::vector<float>* times = nullptr;
  const std::vector<float>* values = nullptr;
  Interpolation interp = Interpolation::linear;
  std::size_t width = 3;
};

// Accessors decoded once per animation, whatever number of samplers and channels name them.
class AccessorCache {
 public:
  std::optional<Finding> get(const Model& m, std::int64_t index, int width, const std::string& where,
                             const std::vector<float>*& out) {
    const auto key = std::make_pair(index, width);
    auto it = decoded_.find(key);
    if (it == decoded_.end()) {
      std::vector<float> values;
      if (auto e = read_floats(m, index, width, where, values)) return e;
      it = decoded_.emplace(key, std::move(values)).first;
    }
    out = &it->second;
    return std::nullopt;
  }

 private:
  std::map<std::pair<std::int64_t, int>, std::vector<float>> decoded_;
};

// What the 30 fps sampler may still produce in this read (docs/safety.md "Memory").
struct SamplingBudget {
  std::uint64_t frames = 0;      // sampled so far, all animations
  std::uint64_t values = 0;      // floats sampled so far
  std::uint64_t max_values = 0;  // kSampledValuesSlack + what the input's size accounts for
};

std::string whole_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

// The animation's frame count against the per-animation and per-read limits, and the values
// its `sampled` frames (1 for a held animation) add.
std::optional<Finding> check_sampling(const std::string& aw, double t0, double t1, double frames_d, std::size_t sampled,
                                      std::size_t values_per_frame, SamplingBudget& budget) {
  if (!(frames_d >= 1 && frames_d <= double(kMaxMotionFrames)))
    return error(aw, "animation too long to sample (key times from " + whole_number(t0) + " s to " +
                         whole_number(t1) + " s)",
                 "<= " + frames_text(kMaxMotionFrames), whole_number(frames_d) + " frames");
  const auto frames = static_cast<std::uint64_t>(frames_d);
  budget.frames += frames;
  if (budget.frames > kMaxTotalFrames)
    return error(aw, "animations too long in total to sample (the limit is for all animations of one file)",
                 "<= " + frames_text(kMaxTotalFrames) + " in all", std::to_string(budget.frames) + " frames up to here");
  budget.values += std::min<std::uint64_t>(frames, sampled) * values_per_frame;
  if (budget.values > budget.max_values)
    return error(aw, "animations sample to too many values (frames x channels) for the size of the file",
                 "<= " + std::to_string(budget.max_values) + " values in all", std::to_string(budget.values));
  return std::nullopt;
}

// True when every key of the sampler carries the same value: one sample says all it means.
bool holds_one_value(const Source& s) {
  if (s.interp == Interpolation::cubic_spline) return s.times->size() == 1;  // tangents could still move it
  const float* v = s.values->data();
  for (std::size_t k = 1; k < s.times->size(); ++k)
    if (!std::equal(v, v + s.width, v + k * s.width)) return false;
  return true;
}

// The first sampler whose key times fall between the sample times (t0 + i / fps), and the key
// rate it was written at: reported once per file, since resampling changes such motions.
struct OffGrid {
  std::string where;
  double rate = 0;
};

void check_time_grid(const std::vector<float>& times, double t0, double fps, const std::string& where, OffGrid& off) {
  if (!off.where.empty()) return;
  constexpr double kFrameTolerance = 1e-3;  // of a frame: float key times i / fps are within 1e-5
  double shortest = INFINITY;
  bool on_grid = true;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double frame = (double(times[k]) - t0) * fps;
    on_grid = on_grid && std::fabs(frame - std::round(frame)) <= kFrameTolerance;
    if (k > 0) shortest = std::min(shortest, double(times[k]) - double(times[k - 1]));
  }
  if (on_grid) return;
  off.where = where;
  off.rate = std::isfinite(shortest) && shortest > 0 ? 1.0 / shortest : 0;
}

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

std::optional<Finding> read_animation(const Model& m, std::size_t ai, const ReadOptions& o, Diagnostics& warnings,
                                      SamplingBudget& budget, OffGrid& off_grid, scene::Animation& out) {
  const Json& a = array_of(m.json, "animations")[ai];
  const Json& nodes = array_of(m.json, "nodes");
  out.name = string_of(a, "name");
  if (out.name.empty()) out.name = "animation_" + std::to_string(ai);
  set_extras(out.extras, a);
  const std::string aw = "animation " + in_quotes(out.name);
  const Json& channels_json = array_of(a, "channels");
  const Json& samplers = array_of(a, "samplers");
  if (channels_json.empty()) return error(aw, "animation has no channels", ">= 1 channel", "0");
  std::vector<Source> sources;
  std::vector<scene::Channel> channels;
  AccessorCache cache;
  double t0 = INFINITY, t1 = -INFINITY;
  for (std::size_t ci = 0; ci < channels_json.size(); ++ci) {
    const Json& ch = channels_json[ci];
    const Json* target = member(ch, "target");
    const std::int64_t node = target ? index_of(*target, "node", -2) : -2;
    const std::string path = target ? string_of(*target, "path") : "";
    const bool node_ok = node >= 0 && std::size_t(node) < nodes.size();
    const std::string node_name = node_ok ? in_quotes(string_of(nodes[std::size_t(node)], "name")) : std::to_string(node);
    const std::string where = aw + " channel " + std::to_string(ci) + " (node " + node_name + " " + path + ")";
    if (!node_ok)
      return error(where, "channel targets a node that does not exist", "< " + std::to_string(nodes.size()),
                   std::to_string(node));
    scene::Channel c;
    c.joint = static_cast<std::uint32_t>(node);
    Source s;
    if (path == "translation") c.path = scene::Channel::Path::translation, s.width = 3;
    else if (path == "rotation") c.path = scene::Channel::Path::rotation, s.width = 4;
    else if (path == "scale") c.path = scene::Channel::Path::scale, s.width = 3;
    else {
      warnings.add(Severity::warning, 0, where, "channel path not supported; ignored", "translation, rotation or scale", path);
      continue;
    }
    const std::int64_t si = index_of(ch, "sampler", -2);
    if (si < 0 || std::size_t(si) >= samplers.size())
      return error(where, "sampler index out of range", "< " + std::to_string(samplers.size()), std::to_string(si));
    const Json& smp = samplers[std::size_t(si)];
    const std::string interp = string_of(smp, "interpolation");
    if (interp == "STEP") s.interp = Interpolation::step;
    else if (interp == "CUBICSPLINE") s.interp = Interpolation::cubic_spline;
    else if (!interp.empty() && interp != "LINEAR")
      return error(where, "unknown interpolation", "LINEAR, STEP or CUBICSPLINE", interp);
    if (auto e = cache.get(m, index_of(smp, "input", -2), 1, where + " input", s.times)) return e;
    const std::vector<float>& times = *s.times;
    for (std::size_t k = 1; k < times.size(); ++k)
      if (!(times[k] > times[k - 1]))
        return error(where + " input", "key times do not increase",
                     "time[" + std::to_string(k) + "] > " + std::to_string(times[k - 1]), std::to_string(times[k]));
    if (auto e = cache.get(m, index_of(smp, "output", -2), int(s.width), where + " output", s.values)) return e;
    const std::size_t per_key = s.interp == Interpolation::cubic_spline ? 3 : 1;
    if (s.values->size() != times.size() * s.width * per_key)
      return error(where + " output", "output count does not match the key times",
                   std::to_string(times.size() * per_key), std::to_string(s.values->size() / s.width));
    t0 = std::min(t0, double(times.front()));
    t1 = std::max(t1, double(times.back()));
    channels.push_back(std::move(c));
    sources.push_back(std::move(s));
  }
  if (channels.empty()) return error(aw, "animation has no usable channels", "translation, rotation or scale", "none");
  for (std::size_t c = 0; c < channels.size(); ++c)
    check_time_grid(*sources[c].times, t0, o.fps, aw + " channel " + std::to_string(c), off_grid);
  // Frame count from the duration, bounded before anything is allocated for it. An animation
  // whose channels all hold one value is sampled once (its length stays in `duration`).
  const double frames_d = std::round((t1 - t0) * o.fps) + 1;
  out.duration = t1 - t0;
  const bool held = std::all_of(sources.begin(), sources.end(), holds_one_value);
  std::size_t values_per_frame = 0;
  for (const Source& s : sources) values_per_frame += s.width;
  if (auto e = check_sampling(aw, t0, t1, frames_d, held ? 1 : SIZE_MAX, values_per_frame, budget)) return e;
  const auto frames = held ? std::size_t{1} : static_cast<std::size_t>(frames_d);
  scene::Timeline tl;
  tl.times.resize(frames);
  for (std::size_t i = 0; i < frames; ++i) tl.times[i] = float(t0 + double(i) / o.fps);
  out.timelines.push_back(std::move(tl));
  for (std::size_t c = 0; c < channels.size(); ++c) {
    const Source& s = sources[c];
    auto& ch = channels[c];
    ch.timeline = 0;
    ch.values.resize(frames * s.width);
    for (std::size_t i = 0; i < frames; ++i)
      evaluate(s.times->data(), s.times->size(), s.values->data(), s.width, s.interp,
               ch.path == scene::Channel::Path::rotation, t0 + double(i) / o.fps, ch.values.data() + i * s.width);
  }
  out.channels = std::move(channels);
  return std::nullopt;
}

}  // namespace

bool looks_like_gltf(Bytes bytes) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) return true;
  std::size_t i = 0;
  if (bytes.size() >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) i = 3;  // UTF-8 BOM
  while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' || bytes[i] == '\n')) ++i;
  if (i >= bytes.size() || bytes[i] != '{') return false;
  const std::string_view head(reinterpret_cast<const char*>(bytes.data()), std::min<std::size_t>(bytes.size(), 1 << 16));
  return head.find("\"asset\"") != std::string_view::npos;
}

void evaluate(const float* times, std::size_t count, const float* values, std::size_t width, Interpolation interp,
              bool rotation, double t, float* out) {
  constexpr double kSnap = 1e-6;  // seconds: sample times computed as i/fps meet float key times
  const std::size_t stride = interp == Interpolation::cubic_spline ? 3 * width : width;
  const std::size_t value_at = interp == Interpolation::cubic_spline ? width : 0;
  auto key = [&](std::size_t k) { return values + k * stride + value_at; };
  auto copy = [&](std::size_t k) { std::copy_n(key(k), width, out); };
  if (count == 1 || t <= double(times[0]) + kSnap) return copy(0);
  if (t >= double(times[count - 1]) - kSnap) return copy(count - 1);
  // Largest k with times[k] <= t (binary search: per-sample cost O(log n), no state).
  const std::size_t k = static_cast<std::size_t>(std::upper_bound(times, times + count, float(t)) - times) - 1;
  const std::size_t k1 = std::min(k + 1, count - 1);
  if (std::fabs(t - double(times[k])) <= kSnap) return copy(k);
  if (std::fabs(t - double(times[k1])) <= kSnap) return copy(k1);
  if (interp == Interpolation::step) return copy(k);
  // Between equal keys (a held value) the value itself: slerp and normalising would move a
  // quaternion stored off unit length (normalised SHORT keys are, by up to 6e-5).
  if (interp == Interpolation::linear && std::equal(key(k), key(k) + width, key(k1))) return copy(k);
  const double dt = double(times[k1]) - double(times[k]);
  const double u = std::clamp((t - double(times[k])) / dt, 0.0, 1.0);
  const float* a = key(k);
  const float* b = key(k1);
  double r[4] = {0, 0, 0, 0};
  if (interp == Interpolation::cubic_spline) {
    // Hermite spline; tangents are per second, so they are scaled by the interval (glTF spec).
    const float* out_tangent = values + k * stride + 2 * width;
    const float* in_tangent = values + k1 * stride;
    const double u2 = u * u, u3 = u2 * u;
    const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    for (std::size_t c = 0; c < width; ++c)
      r[c] = h00 * a[c] + h10 * dt * out_tangent[c] + h01 * b[c] + h11 * dt * in_tangent[c];
  } else if (rotation) {
    // Slerp along the shorter arc, as the glTF specification's reference implementation does.
    double d = double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2] + double(a[3]) * b[3];
    const double sign = d < 0 ? -1.0 : 1.0;
    d = std::fabs(d);
    double wa = 1 - u, wb = u;
    if (d < 0.9999995) {
      const double theta = std::acos(std::min(d, 1.0));
      const double s = std::sin(theta);
      wa = std::sin((1 - u) * theta) / s;
      wb = std::sin(u * theta) / s;
    }
    for (std::size_t c = 0; c < 4; ++c) r[c] = wa * a[c] + wb * sign * b[c];
  } else {
    for (std::size_t c = 0; c < width; ++c) r[c] = (1 - u) * a[c] + u * b[c];
  }
  if (rotation) {
    const double n = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    if (n > 0)
      for (double& c : r) c /= n;
  }
  for (std::size_t c = 0; c < width; ++c) out[c] = float(r[c]);
}

Result<scene::Scene> read(Bytes bytes, const ExternalBuffers& buffers, const ReadOptions& options,
                          Diagnostics& warnings) {
  if (!(options.fps > 0)) return error("", "sampling rate must be positive", "> 0", std::to_string(options.fps));
  Model m;
  if (auto e = parse(bytes, buffers, m)) return *e;
  // What the input holds: the file plus external or decoded buffers (a .glb's are views into it).
  std::uint64_t input_bytes = bytes.size();
  for (const auto& owned : m.owned) input_bytes += owned.size();
  for (const auto& file : m.files) input_bytes += file->bytes().size();
  m.decode_budget = 2 * input_bytes + kDecodedAccessorSlack;
  const Json& animations = array_of(m.json, "animations");
  if (animations.empty() && options.require_animations)
    return error("animations", "the glTF has no animations", ">= 1 animation", "0");
  const Json& nodes = array_of(m.json, "nodes");
  const Json& scenes = array_of(m.json, "scenes");

  scene::Scene s;
  if (const Json* asset = member(m.json, "asset")) s.generator = string_of(*asset, "generator");
  std::int64_t si = index_of(m.json, "scene", 0);
  if (si < 0 || std::size_t(si) >= scenes.size()) si = 0;
  if (!scenes.empty()) {
    set_extras(s.extras, scenes[std::size_t(si)]);
    s.skeleton.name = string_of(scenes[std::size_t(si)], "name");
  }
  s.skeleton.joints.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (auto e = read_node(nodes[i], i, s.skeleton.joints[i])) return *e;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Json& children = array_of(nodes[i], "children");
    for (const auto& cj : children) {
      const std::string where = "node " + std::to_string(i) + " (" + in_quotes(s.skeleton.joints[i].name) + ")";
      const std::int64_t c = cj.is_number_unsigned() ? std::int64_t(std::min<std::uint64_t>(cj.get<std::uint64_t>(), 1ull << 40)) : -1;
      if (c < 0 || std::size_t(c) >= nodes.size())
        return error(where, "child index out of range", "< " + std::to_string(nodes.size()), cj.dump());
      if (std::size_t(c) == i)
        return error(where, "node is its own child (a cycle in the node hierarchy)", "another node's index", cj.dump());
      if (s.skeleton.joints[std::size_t(c)].parent >= 0)
        return error(where, "node has two parents", "one parent", in_quotes(s.skeleton.joints[std::size_t(c)].name));
      s.skeleton.joints[std::size_t(c)].parent = static_cast<int>(i);
    }
  }
  // Perspective cameras the nodes carry (an X-Ray camera motion is imported from its node).
  const Json& cameras = array_of(m.json, "cameras");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::int64_t ci = index_of(nodes[i], "camera", -1);
    if (ci < 0 || std::size_t(ci) >= cameras.size()) continue;
    const Json& cam = cameras[std::size_t(ci)];
    scene::Camera c;
    c.name = string_of(cam, "name");
    c.joint = static_cast<std::uint32_t>(i);
    if (const Json* p = member(cam, "perspective")) {
      auto scalar = [&](const char* key, float& out) {
        const Json* v = member(*p, key);
        if (v && v->is_number() && std::isfinite(v->get<double>())) out = float(v->get<double>());
      };
      scalar("yfov", c.yfov);
      scalar("znear", c.znear);
      scalar("zfar", c.zfar);
      scalar("aspectRatio", c.aspect);
    }
    s.cameras.push_back(std::move(c));
  }
  // Cycles: walking up from any node must end within n steps.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    int p = s.skeleton.joints[i].parent;
    for (std::size_t steps = 0; p >= 0; ++steps, p = s.skeleton.joints[std::size_t(p)].parent)
      if (steps > nodes.size())
        return error("node " + std::to_string(i) + " (" + in_quotes(s.skeleton.joints[i].name) + ")",
                     "node hierarchy has a cycle");
  }
  if (options.meshes)
    if (auto e = read_meshes(m, s, warnings)) return *e;
  SamplingBudget budget;
  budget.max_values = kSampledValuesSlack + input_bytes / 2;
  OffGrid off_grid;
  s.animations.resize(animations.size());
  for (std::size_t a = 0; a < animations.size(); ++a)
    if (auto e = read_animation(m, a, options, warnings, budget, off_grid, s.animations[a])) return *e;
  if (!off_grid.where.empty()) warn_off_grid(off_grid, options.fps, warnings);
  return s;
}

}  // namespace boneyard::gltf
