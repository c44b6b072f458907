// glTF 2.0 -> neutral scene: nodes, skin and animations sampled at 30 fps (the container, buffers
// and checked accessors are gltf_container.cpp; meshes gltf_mesh_reader.cpp). The JSON is read with
// nlohmann::json in one pass, so extras are taken as parsed (exact integers and floats).
#include "boneyard/gltf/gltf_read.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

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

namespace {

// The read of both entry points: eager (deferred == nullptr) or deferred, whose sampler keeps the
// buffers open (the input's own FileData in deferred->input).
Result<scene::Scene> read_scene(Bytes bytes, const ExternalBuffers& buffers, const ReadOptions& options,
                                Diagnostics& warnings, KeptBuffers* deferred) {
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
  if (deferred) {
    deferred->owned = std::move(m.owned);
    deferred->files = std::move(m.files);
  }
  if (auto e = read_animations(m, options, warnings, deferred, s)) return *e;
  return s;
}

}  // namespace

Result<scene::Scene> read(Bytes bytes, const ExternalBuffers& buffers, const ReadOptions& options,
                          Diagnostics& warnings) {
  return read_scene(bytes, buffers, options, warnings, nullptr);
}

Result<scene::Scene> read_deferred(std::shared_ptr<const FileData> file, const ExternalBuffers& buffers,
                                   const ReadOptions& options, Diagnostics& warnings) {
  detail::KeptBuffers kept;
  kept.input = file;
  return read_scene(file->bytes(), buffers, options, warnings, &kept);
}

}  // namespace boneyard::gltf
