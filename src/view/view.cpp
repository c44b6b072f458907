#include "boneyard/view/view.h"

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "boneyard/registry/document.h"
#include "boneyard/core/file_io.h"
#include "embedded_files.h"
#include "view_config.h"

namespace boneyard::view {

namespace {

// The three.js modules the page needs, by path inside the npm package (the viewer imports
// 'three', OrbitControls and GLTFLoader; GLTFLoader imports the two utils).
constexpr std::string_view kThreePrefix = "three/";

std::string embedded(std::string_view name) {
  for (std::size_t i = 0; i < detail::kEmbeddedFileCount; ++i) {
    const auto& f = detail::kEmbeddedFiles[i];
    if (name != f.name) continue;
    std::string text;
    for (std::size_t c = 0; c < f.chunk_count; ++c) text += f.chunks[c];
    return text;
  }
  return {};
}

nlohmann::json finding_json(const Finding& f, std::string_view file) {
  return {{"severity", severity_name(f.severity)},
          {"offset", f.offset},
          {"path", f.path},
          {"message", f.message},
          {"expected", f.expected},
          {"found", f.found},
          {"text", format_finding(f, file)}};
}

// JSON for a <script type="application/json"> element: no '<' (so no "</script>") and no '&'.
std::string script_json(const nlohmann::json& j) {
  const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + 64);
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else {
      out += c;
    }
  }
  return out;
}

// Replaces each "@@KEY@@" of the template in one pass (inserted text is never scanned again).
std::string fill_template(std::string_view tpl, const std::vector<std::pair<std::string_view, std::string>>& values) {
  std::string out;
  std::size_t pos = 0;
  while (pos < tpl.size()) {
    const auto open = tpl.find("@@", pos);
    const auto close = open == std::string_view::npos ? open : tpl.find("@@", open + 2);
    if (close == std::string_view::npos) break;
    const std::string_view key = tpl.substr(open + 2, close - open - 2);
    const auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == key; });
    if (it == values.end()) {
      out.append(tpl.substr(pos, close - pos));
      pos = close;
      continue;
    }
    out.append(tpl.substr(pos, open - pos));
    out += it->second;
    pos = close + 2;
  }
  out.append(tpl.substr(std::min(pos, tpl.size())));
  return out;
}

void base64_append(std::string& out, const std::uint8_t* data, std::size_t size);

// The .glb of item i stands in the page data as this string until splice_glbs replaces it: the
// base64 text of a large model is then written once, straight into the page, instead of passing
// through the JSON value, its dump and its escaped copy (each as large as the page). The nonce
// keeps a name or message in the file's own data from ever matching the token.
std::string glb_token(std::size_t i, std::uint64_t nonce) {
  return "@@boneyard-glb-" + std::to_string(nonce) + "-" + std::to_string(i) + "@@";
}

std::uint64_t make_nonce() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) ^ rd();
}

std::string splice_glbs(const std::string& page, const std::vector<Item>& items, std::uint64_t nonce) {
  std::size_t size = page.size();
  for (const auto& item : items) size += (item.glb.size() + 2) / 3 * 4;
  std::string out;
  out.reserve(size);
  std::size_t pos = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].glb.empty()) continue;
    const std::string token = glb_token(i, nonce);
    const std::size_t at = page.find(token, pos);
    if (at == std::string::npos) continue;
    out.append(page, pos, at - pos);
    base64_append(out, items[i].glb.data(), items[i].glb.size());
    pos = at + token.size();
  }
  out.append(page, pos, std::string::npos);
  return out;
}

void base64_append(std::string& out, const std::uint8_t* data, std::size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t v = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) | data[i + 2];
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (const std::size_t rest = size - i; rest != 0) {
    std::uint32_t v = std::uint32_t{data[i]} << 16;
    if (rest == 2) v |= std::uint32_t{data[i + 1]} << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
}

}  // namespace

std::string base64_encode(const std::uint8_t* data, std::size_t size) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  base64_append(out, data, size);
  return out;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

// A glTF input is its own model: a .glb goes onto the page as it is. A .gltf (JSON) keeps its
// buffers and images in other files, which a self-contained page cannot fetch.
void show_gltf_as_is(Item& item, const std::filesystem::path& input) {
  auto opened = FileData::open(input);
  const Bytes bytes = opened ? opened.value()->bytes() : Bytes{};
  if (bytes.size() >= 4 && std::equal(bytes.begin(), bytes.begin() + 4, "glTF")) {
    item.glb.assign(bytes.begin(), bytes.end());
    return;
  }
  item.no_model = "a .gltf (JSON) file is not shown: its buffers live in other files that the page cannot load; "
                  "view a .glb of it instead. Only the summary and the findings are shown";
}

}  // namespace

Item make_item(const Document& doc, std::string name, const ItemOptions& options) {
  Item item;
  item.name = std::move(name);
  item.format = std::string(doc.format());
  item.info = doc.info();
  item.findings = doc.validate().findings();
  if (item.format == "gltf") {
    show_gltf_as_is(item, options.input.empty() ? std::filesystem::path(item.name) : options.input);
    return item;
  }
  const auto targets = doc.convert_targets();
  if (std::find(targets.begin(), targets.end(), ".glb") == targets.end()) {
    item.no_model = "no glTF export for ." + item.format + " files yet: only the summary and the findings are shown";
    return item;
  }
  ConvertOptions convert;
  Diagnostics warnings;
  convert.input = options.input;
  convert.output = std::filesystem::path(options.input).replace_extension(".glb");
  convert.settings.skeleton = options.skeleton;
  convert.settings.meshes = options.meshes_root;
  convert.settings.textures = options.textures;
  convert.warnings = &warnings;
  auto glb = convert_in_memory(doc, ".glb", convert);
  for (auto& f : warnings.findings())
    if (f.severity != Severity::info) item.warnings.push_back(std::move(f));
  if (!glb) {
    item.no_model = "the glTF export failed: " + format_finding(glb.error(), item.name);
    return item;
  }
  item.glb = std::move(glb).value().main;
  return item;
}

bool bundle_available() {
#ifdef BONEYARD_VIEW_THREE_VERSION
  return true;
#else
  return false;
#endif
}

std::string bundle_unavailable_reason() {
#ifdef BONEYARD_VIEW_NO_THREE_REASON
  return BONEYARD_VIEW_NO_THREE_REASON;
#else
  return {};
#endif
}

Bundle embedded_bundle() {
  Bundle bundle;
#ifdef BONEYARD_VIEW_THREE_VERSION
  bundle.three_version = BONEYARD_VIEW_THREE_VERSION;
#endif
  for (std::size_t i = 0; i < detail::kEmbeddedFileCount; ++i) {
    const std::string_view name = detail::kEmbeddedFiles[i].name;
    if (name.starts_with(kThreePrefix))
      bundle.modules.push_back({std::string(name.substr(kThreePrefix.size())), embedded(name)});
  }
  return bundle;
}

std::string build_html(const std::vector<Item>& items, const Bundle& three, std::string_view title) {
  const std::uint64_t nonce = make_nonce();
  nlohmann::json files = nlohmann::json::array();
  for (const auto& item : items) {
    nlohmann::json findings = nlohmann::json::array(), warnings = nlohmann::json::array();
    for (const auto& f : item.findings) findings.push_back(finding_json(f, item.name));
    for (const auto& f : item.warnings) warnings.push_back(finding_json(f, item.name));
    files.push_back({{"name", item.name},
                     {"format", item.format},
                     {"info", item.info},
                     {"findings", std::move(findings)},
                     {"warnings", std::move(warnings)},
                     {"glb", item.glb.empty() ? nlohmann::json(nullptr) : nlohmann::json(glb_token(files.size(), nonce))},
                     {"no_model", item.no_model}});
  }
  // Every module as base64: the page decodes them, links their imports and loads them as blobs.
  nlohmann::json modules = nlohmann::json::object();
  for (const auto& m : three.modules)
    modules[m.path] = base64_encode(reinterpret_cast<const std::uint8_t*>(m.source.data()), m.source.size());
  const std::string app = embedded("viewer.js");
  modules["app/viewer.js"] = base64_encode(reinterpret_cast<const std::uint8_t*>(app.data()), app.size());

  return splice_glbs(fill_template(embedded("viewer.html"),
                       {{"TITLE", html_escape(title)},
                        {"STYLE", embedded("viewer.css")},
                        {"MODULES", script_json({{"three_version", three.three_version}, {"modules", modules}})},
                        {"DATA", script_json({{"title", std::string(title)}, {"files", std::move(files)}})}}),
                     items, nonce);
}

}  // namespace boneyard::view
