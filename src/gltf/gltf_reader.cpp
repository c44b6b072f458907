// glTF 2.0 -> neutral scene. tinygltf parses the container (GLB chunks, data URIs, external
// buffers); everything it hands us is re-checked here before use, because it does not verify that
// an accessor's elements lie inside its buffer view, nor that values are finite or times increase.
#include "boneyard/gltf_read.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace boneyard::gltf {

namespace {

Finding error(std::string path, std::string message, std::string expected = {}, std::string found = {}) {
  return Finding{Severity::error, 0, std::move(path), std::move(message), std::move(expected), std::move(found)};
}

std::string in_quotes(const std::string& s) { return "\"" + s + "\""; }

// Extras as nlohmann::json, from the exact JSON text tinygltf kept (its own Value type squeezes
// integers into int, which would corrupt CRCs above 2^31, and drops nulls from arrays).
nlohmann::json extras_of(const std::string& text) {
  if (text.empty()) return nullptr;
  auto j = nlohmann::json::parse(text, nullptr, false);
  return j.is_discarded() ? nlohmann::json(nullptr) : j;
}

std::size_t component_size(int type) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: return 4;
    default: return 0;
  }
}

// Reads accessor `index` as floats (normalised integers allowed, as glTF permits for rotation
// outputs), checking every byte it touches. `width` is the expected component count per element.
std::optional<Finding> read_floats(const tinygltf::Model& m, int index, int width, const std::string& where,
                                   std::vector<float>& out) {
  if (index < 0 || static_cast<std::size_t>(index) >= m.accessors.size())
    return error(where, "accessor index out of range", "< " + std::to_string(m.accessors.size()),
                 std::to_string(index));
  const auto& a = m.accessors[index];
  const std::string at = where + " accessor " + std::to_string(index);
  if (a.sparse.isSparse) return error(at, "sparse accessors are not supported", "a dense accessor", "sparse");
  const int comps = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  if (comps != width)
    return error(at, "wrong accessor type", std::to_string(width) + " components", std::to_string(comps));
  const std::size_t csize = component_size(a.componentType);
  const bool is_float = a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT;
  if (csize == 0 || (!is_float && (!a.normalized || csize == 4)))
    return error(at, "unsupported component type", "float or normalised (u)byte/(u)short",
                 std::to_string(a.componentType));
  if (a.count == 0) return error(at, "accessor has no elements", ">= 1", "0");
  if (a.bufferView < 0 || static_cast<std::size_t>(a.bufferView) >= m.bufferViews.size())
    return error(at, "accessor has no valid buffer view", "a bufferView index", std::to_string(a.bufferView));
  const auto& v = m.bufferViews[a.bufferView];
  if (v.buffer < 0 || static_cast<std::size_t>(v.buffer) >= m.buffers.size())
    return error(at, "buffer view refers to a missing buffer", "a buffer index", std::to_string(v.buffer));
  const auto& data = m.buffers[v.buffer].data;
  const std::size_t elem = csize * static_cast<std::size_t>(width);
  const std::size_t stride = v.byteStride != 0 ? v.byteStride : elem;
  // All arithmetic in 64 bits; counts come from the file and must not wrap.
  const std::uint64_t need = std::uint64_t(a.byteOffset) + std::uint64_t(stride) * (a.count - 1) + elem;
  if (stride < elem || v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset ||
      need > v.byteLength)
    return error(at, "accessor reads outside its buffer", "<= " + std::to_string(v.byteLength) + " bytes in view",
                 std::to_string(need));
  const std::uint8_t* p = data.data() + v.byteOffset + a.byteOffset;
  out.resize(a.count * static_cast<std::size_t>(width));
  for (std::size_t i = 0; i < a.count; ++i, p += stride)
    for (int c = 0; c < width; ++c) {
      const std::uint8_t* q = p + c * csize;
      float f = 0;
      switch (a.componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT: std::memcpy(&f, q, 4); break;
        case TINYGLTF_COMPONENT_TYPE_BYTE: f = std::max(float(std::int8_t(*q)) / 127.0f, -1.0f); break;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: f = float(*q) / 255.0f; break;
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
          std::int16_t s;
          std::memcpy(&s, q, 2);
          f = std::max(float(s) / 32767.0f, -1.0f);
          break;
        }
        default: {
          std::uint16_t s;
          std::memcpy(&s, q, 2);
          f = float(s) / 65535.0f;
        }
      }
      if (!std::isfinite(f))
        return error(at, "non-finite value (NaN or infinity)", "finite numbers",
                     "element " + std::to_string(i) + " component " + std::to_string(c));
      out[i * width + c] = f;
    }
  return std::nullopt;
}

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

std::optional<Finding> read_node(const tinygltf::Node& n, std::size_t index, scene::Joint& j) {
  const std::string where = "node " + std::to_string(index) + " (" + in_quotes(n.name) + ")";
  j.name = n.name;
  j.extras = extras_of(n.extras_json_string);
  if (n.matrix.size() == 16) {
    for (double d : n.matrix)
      if (!std::isfinite(d)) return error(where, "non-finite matrix element", "finite numbers", "NaN or infinity");
    const auto& c = n.matrix;  // column-major
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
  if (!n.matrix.empty()) return error(where, "matrix must have 16 elements", "16", std::to_string(n.matrix.size()));
  auto finite_all = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double d) { return std::isfinite(d); });
  };
  if (!finite_all(n.translation) || !finite_all(n.rotation) || !finite_all(n.scale))
    return error(where, "non-finite TRS value", "finite numbers", "NaN or infinity");
  if (n.translation.size() == 3) j.translation = {float(n.translation[0]), float(n.translation[1]), float(n.translation[2])};
  if (n.rotation.size() == 4)
    j.rotation = scene::normalized(
        {float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]), float(n.rotation[3])});
  if (n.scale.size() == 3) j.scale = {float(n.scale[0]), float(n.scale[1]), float(n.scale[2])};
  return std::nullopt;
}

// Sampled channel data gathered before resampling.
struct Source {
  std::vector<float> times, values;
  Interpolation interp = Interpolation::linear;
  std::size_t width = 3;
};

std::optional<Finding> read_animation(const tinygltf::Model& m, std::size_t ai, const ReadOptions& o,
                                      Diagnostics& warnings, scene::Animation& out) {
  const auto& a = m.animations[ai];
  out.name = a.name.empty() ? "animation_" + std::to_string(ai) : a.name;
  out.extras = extras_of(a.extras_json_string);
  const std::string aw = "animation " + in_quotes(out.name);
  if (a.channels.empty()) return error(aw, "animation has no channels", ">= 1 channel", "0");
  std::vector<Source> sources;
  std::vector<scene::Channel> channels;
  double t0 = INFINITY, t1 = -INFINITY;
  for (std::size_t ci = 0; ci < a.channels.size(); ++ci) {
    const auto& ch = a.channels[ci];
    const bool node_ok = ch.target_node >= 0 && static_cast<std::size_t>(ch.target_node) < m.nodes.size();
    const std::string node_name = node_ok ? in_quotes(m.nodes[ch.target_node].name) : std::to_string(ch.target_node);
    const std::string where = aw + " channel " + std::to_string(ci) + " (node " + node_name + " " + ch.target_path + ")";
    if (!node_ok) return error(where, "channel targets a node that does not exist", "< " + std::to_string(m.nodes.size()), std::to_string(ch.target_node));
    scene::Channel c;
    c.joint = static_cast<std::uint32_t>(ch.target_node);
    Source s;
    if (ch.target_path == "translation") c.path = scene::Channel::Path::translation, s.width = 3;
    else if (ch.target_path == "rotation") c.path = scene::Channel::Path::rotation, s.width = 4;
    else if (ch.target_path == "scale") c.path = scene::Channel::Path::scale, s.width = 3;
    else {
      warnings.add(Severity::warning, 0, where, "channel path not supported; ignored", "translation, rotation or scale", ch.target_path);
      continue;
    }
    if (ch.sampler < 0 || static_cast<std::size_t>(ch.sampler) >= a.samplers.size())
      return error(where, "sampler index out of range", "< " + std::to_string(a.samplers.size()), std::to_string(ch.sampler));
    const auto& smp = a.samplers[ch.sampler];
    if (smp.interpolation == "STEP") s.interp = Interpolation::step;
    else if (smp.interpolation == "CUBICSPLINE") s.interp = Interpolation::cubic_spline;
    else if (!smp.interpolation.empty() && smp.interpolation != "LINEAR")
      return error(where, "unknown interpolation", "LINEAR, STEP or CUBICSPLINE", smp.interpolation);
    if (auto e = read_floats(m, smp.input, 1, where + " input", s.times)) return e;
    for (std::size_t k = 1; k < s.times.size(); ++k)
      if (!(s.times[k] > s.times[k - 1]))
        return error(where + " input", "key times do not increase", "time[" + std::to_string(k) + "] > " + std::to_string(s.times[k - 1]),
                     std::to_string(s.times[k]));
    if (auto e = read_floats(m, smp.output, int(s.width), where + " output", s.values)) return e;
    const std::size_t per_key = s.interp == Interpolation::cubic_spline ? 3 : 1;
    if (s.values.size() != s.times.size() * s.width * per_key)
      return error(where + " output", "output count does not match the key times",
                   std::to_string(s.times.size() * per_key), std::to_string(s.values.size() / s.width));
    t0 = std::min(t0, double(s.times.front()));
    t1 = std::max(t1, double(s.times.back()));
    channels.push_back(std::move(c));
    sources.push_back(std::move(s));
  }
  if (channels.empty()) return error(aw, "animation has no usable channels", "translation, rotation or scale", "none");
  // Frame count from the duration; a duration beyond 24 hours at 30 fps is not an animation.
  const double frames_d = std::round((t1 - t0) * o.fps) + 1;
  if (!(frames_d >= 1 && frames_d <= 3.0e6))
    return error(aw, "time range too long to sample", "<= 3e6 frames", std::to_string(frames_d));
  const auto frames = static_cast<std::size_t>(frames_d);
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
      evaluate(s.times.data(), s.times.size(), s.values.data(), s.width, s.interp,
               ch.path == scene::Channel::Path::rotation, t0 + double(i) / o.fps, ch.values.data() + i * s.width);
  }
  out.channels = std::move(channels);
  return std::nullopt;
}

// tinygltf would decode images; animation import never needs them.
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
  return true;
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

Result<scene::Scene> read(Bytes bytes, const std::filesystem::path& base_dir, const ReadOptions& options,
                          Diagnostics& warnings) {
  if (!(options.fps > 0)) return error("", "sampling rate must be positive", "> 0", std::to_string(options.fps));
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(skip_image, nullptr);
  loader.SetStoreOriginalJSONForExtrasAndExtensions(true);
  tinygltf::Model m;
  std::string err, warn;
  const bool glb = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
  const std::string base = base_dir.string();
  const bool ok =
      glb ? loader.LoadBinaryFromMemory(&m, &err, &warn, bytes.data(), static_cast<unsigned int>(bytes.size()), base)
          : loader.LoadASCIIFromString(&m, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                       static_cast<unsigned int>(bytes.size()), base);
  if (!warn.empty()) warnings.add(Severity::warning, 0, "glTF", "reader: " + warn);
  if (!ok) return error("glTF", "cannot parse the glTF file", "valid glTF 2.0", err.empty() ? "parse error" : err);
  if (m.animations.empty()) return error("animations", "the glTF has no animations", ">= 1 animation", "0");

  scene::Scene s;
  s.generator = m.asset.generator;
  const int si = m.defaultScene >= 0 && static_cast<std::size_t>(m.defaultScene) < m.scenes.size() ? m.defaultScene : 0;
  if (!m.scenes.empty()) {
    s.extras = extras_of(m.scenes[si].extras_json_string);
    s.skeleton.name = m.scenes[si].name;
  }
  s.skeleton.joints.resize(m.nodes.size());
  for (std::size_t i = 0; i < m.nodes.size(); ++i)
    if (auto e = read_node(m.nodes[i], i, s.skeleton.joints[i])) return *e;
  for (std::size_t i = 0; i < m.nodes.size(); ++i)
    for (int c : m.nodes[i].children) {
      const std::string where = "node " + std::to_string(i) + " (" + in_quotes(m.nodes[i].name) + ")";
      if (c < 0 || static_cast<std::size_t>(c) >= m.nodes.size() || c == int(i))
        return error(where, "child index out of range", "< " + std::to_string(m.nodes.size()), std::to_string(c));
      if (s.skeleton.joints[c].parent >= 0)
        return error(where, "node has two parents", "one parent", in_quotes(m.nodes[c].name));
      s.skeleton.joints[c].parent = static_cast<int>(i);
    }
  // Cycles: walking up from any node must end within n steps.
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    int p = s.skeleton.joints[i].parent;
    for (std::size_t steps = 0; p >= 0; ++steps, p = s.skeleton.joints[p].parent)
      if (steps > m.nodes.size())
        return error("node " + std::to_string(i) + " (" + in_quotes(m.nodes[i].name) + ")", "node hierarchy has a cycle");
  }
  s.animations.resize(m.animations.size());
  for (std::size_t a = 0; a < m.animations.size(); ++a)
    if (auto e = read_animation(m, a, options, warnings, s.animations[a])) return *e;
  return s;
}

}  // namespace boneyard::gltf
