// The HTML assembly of `boneyard view` (src/view): the page carries the model as a base64 .glb
// that decodes back to the export's bytes, the data as JSON, three.js inline, and nothing that
// points outside the page.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "boneyard/registry/document.h"
#include "boneyard/core/file_io.h"
#include "boneyard/view/view.h"
#include "mgs2_fixture.h"

namespace {

using namespace boneyard;
namespace fs = std::filesystem;

std::vector<std::uint8_t> base64_decode(const std::string& text) {
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v = -1;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+') v = 62;
    else if (c == '/') v = 63;
    if (v < 0) continue;  // '=' padding
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

// The text of <script ... id="ID">...</script>.
std::string script_text(const std::string& html, const std::string& id) {
  const auto tag = html.find("id=\"" + id + "\">");
  if (tag == std::string::npos) return {};
  const auto start = html.find('>', tag) + 1;
  return html.substr(start, html.find("</script>", start) - start);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::unique_ptr<Document> open(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  auto doc = open_document(FileData::from_vector(bytes), name, OpenOptions{});
  EXPECT_TRUE(doc.ok()) << name;
  return doc ? std::move(doc).value() : nullptr;
}

std::unique_ptr<Document> open_file(const fs::path& path) {
  auto opened = FileData::open(path);
  auto doc = open_document(std::move(opened).value(), path.string(), OpenOptions{});
  EXPECT_TRUE(doc.ok()) << path;
  return doc ? std::move(doc).value() : nullptr;
}

const fs::path kExamples = fs::path(BONEYARD_SOURCE_DIR) / "examples";

view::Bundle fake_bundle() {
  return {"0.0.0-test", {{"build/three.module.js", "export const REVISION = 'test';\n"}}};
}

TEST(ViewBase64, Rfc4648Vectors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : cases)
    EXPECT_EQ(view::base64_encode(reinterpret_cast<const std::uint8_t*>(plain.data()), plain.size()), encoded);
  std::vector<std::uint8_t> all(256);
  for (int i = 0; i < 256; ++i) all[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(base64_decode(view::base64_encode(all.data(), all.size())), all);
}

TEST(ViewHtml, EscapesMarkup) {
  EXPECT_EQ(view::html_escape("a<b>&\"'c"), "a&lt;b&gt;&amp;&quot;&#39;c");
}

TEST(ViewItem, OgfWithMotionsCarriesItsGlb) {
  const fs::path arm = kExamples / "wave_arm.ogf";
  auto doc = open_file(arm);
  ASSERT_TRUE(doc);
  view::ItemOptions options;
  options.input = arm;
  const view::Item item = view::make_item(*doc, "wave_arm.ogf", options);
  EXPECT_EQ(item.format, "ogf");
  EXPECT_EQ(item.info, doc->info());
  EXPECT_TRUE(item.no_model.empty()) << item.no_model;
  ASSERT_GE(item.glb.size(), 12u);
  EXPECT_EQ(std::string(item.glb.begin(), item.glb.begin() + 4), "glTF");

  // The same bytes as `boneyard convert`.
  ConvertOptions convert;
  convert.input = arm;
  convert.output = kExamples / "wave_arm.glb";
  auto glb = convert_in_memory(*doc, ".glb", convert);
  ASSERT_TRUE(glb.ok());
  EXPECT_EQ(item.glb, glb.value().main);

  const std::string html = view::build_html({item}, fake_bundle(), "wave_arm.ogf");
  const auto data = nlohmann::json::parse(script_text(html, "boneyard-data"));
  ASSERT_EQ(data["files"].size(), 1u);
  const auto& file = data["files"][0];
  EXPECT_EQ(file["name"], "wave_arm.ogf");
  EXPECT_EQ(file["format"], "ogf");
  EXPECT_EQ(file["info"], item.info);
  EXPECT_EQ(base64_decode(file["glb"].get<std::string>()), item.glb);
  // The glb's own JSON names the motions of wave.omf, found through the model's motion ref.
  const auto& bytes = item.glb;
  const std::uint32_t json_size = bytes[12] | (bytes[13] << 8) | (bytes[14] << 16) | (std::uint32_t{bytes[15]} << 24);
  const auto gltf = nlohmann::json::parse(std::string(bytes.begin() + 20, bytes.begin() + 20 + json_size));
  ASSERT_EQ(gltf["animations"].size(), 2u);
  EXPECT_EQ(gltf["animations"][0]["name"], "wave");
}

TEST(ViewItem, OmfWithoutSkeletonWarnsAndStillShows) {
  const fs::path wave = kExamples / "wave.omf";
  auto doc = open_file(wave);
  ASSERT_TRUE(doc);
  view::ItemOptions options;
  options.input = wave;
  const view::Item flat = view::make_item(*doc, "wave.omf", options);
  EXPECT_FALSE(flat.glb.empty());
  ASSERT_FALSE(flat.warnings.empty());  // flat armature
  options.skeleton = kExamples / "wave_arm.ogf";
  const view::Item placed = view::make_item(*doc, "wave.omf", options);
  EXPECT_FALSE(placed.glb.empty());
  EXPECT_TRUE(placed.warnings.empty());
  const std::string html = view::build_html({flat}, fake_bundle(), "wave.omf");
  const auto data = nlohmann::json::parse(script_text(html, "boneyard-data"));
  EXPECT_EQ(data["files"][0]["warnings"][0]["severity"], "warning");
  EXPECT_EQ(data["files"][0]["warnings"][0]["text"], format_finding(flat.warnings[0], "wave.omf"));
}

TEST(ViewItem, Mgs2WithoutGltfExportSaysSo) {
  using namespace boneyard::test::mgs2fx;
  for (const auto& [name, bytes] : {std::pair{std::string("a.kms"), kms_bytes(standard_kms(false, false))},
                                    std::pair{std::string("a.evm"), evm_bytes(standard_evm(true, false, false))}}) {
    auto doc = open(bytes, name);
    ASSERT_TRUE(doc);
    const view::Item item = view::make_item(*doc, name, {});
    EXPECT_EQ(item.info, doc->info());
    EXPECT_EQ(item.findings.size(), doc->validate().findings().size());
    const auto targets = doc->convert_targets();
    if (std::find(targets.begin(), targets.end(), ".glb") == targets.end()) {
      EXPECT_TRUE(item.glb.empty());
      EXPECT_NE(item.no_model.find("no glTF export"), std::string::npos) << item.no_model;
    } else {
      EXPECT_FALSE(item.glb.empty()) << name << ": " << item.no_model;
    }
    const auto data = nlohmann::json::parse(script_text(view::build_html({item}, fake_bundle(), name), "boneyard-data"));
    EXPECT_EQ(data["files"][0]["no_model"], item.no_model);
    EXPECT_EQ(data["files"][0]["glb"].is_null(), item.glb.empty());
  }
}

TEST(ViewHtml, DataCannotCloseItsScriptElement) {
  view::Item item;
  item.name = "<b>evil</b>.ogf";
  item.format = "ogf";
  item.info = "</script><script>alert(1)</script> & <!-- \xff invalid UTF-8";
  item.findings.push_back({Severity::error, 12, "0xE/1", "</SCRIPT> broken", "a", "b"});
  item.no_model = "none";
  const std::string html = view::build_html({item, item}, fake_bundle(), "<title>");
  // Only the page's own three script elements close; the title is escaped.
  EXPECT_EQ(count(html, "</script>"), 3u);
  EXPECT_EQ(count(html, "</SCRIPT>"), 0u);
  EXPECT_NE(html.find("<title>&lt;title&gt;</title>"), std::string::npos);
  const auto data = nlohmann::json::parse(script_text(html, "boneyard-data"));
  ASSERT_EQ(data["files"].size(), 2u);
  EXPECT_EQ(data["title"], "<title>");
  EXPECT_EQ(data["files"][1]["name"], item.name);
  EXPECT_EQ(data["files"][0]["info"].get<std::string>().substr(0, 20), item.info.substr(0, 20));
  EXPECT_EQ(data["files"][0]["findings"][0]["message"], "</SCRIPT> broken");
  EXPECT_EQ(data["files"][0]["findings"][0]["offset"], 12);
}

// Nothing on the page is loaded from elsewhere: no src/href attributes, no http(s) URL at all
// (three.js and the viewer are base64 in a JSON element, and decode back to their sources).
void expect_self_contained(const std::string& html, const view::Bundle& bundle) {
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find(" href="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  const auto modules = nlohmann::json::parse(script_text(html, "boneyard-modules"));
  EXPECT_EQ(modules["three_version"], bundle.three_version);
  for (const auto& m : bundle.modules) {
    ASSERT_TRUE(modules["modules"].contains(m.path)) << m.path;
    const auto decoded = base64_decode(modules["modules"][m.path].get<std::string>());
    EXPECT_EQ(std::string(decoded.begin(), decoded.end()), m.source) << m.path;
  }
  const auto app = base64_decode(modules["modules"]["app/viewer.js"].get<std::string>());
  const std::string viewer(app.begin(), app.end());
  EXPECT_NE(viewer.find("from 'three/addons/loaders/GLTFLoader.js'"), std::string::npos);
  EXPECT_NE(viewer.find("SkeletonHelper"), std::string::npos);
}

TEST(ViewHtml, SelfContainedWithAFakeBundle) {
  view::Item item;
  item.name = "x.ogf";
  item.glb = {'g', 'l', 'T', 'F', 2, 0, 0, 0};
  const auto bundle = fake_bundle();
  const std::string html = view::build_html({item}, bundle, "x.ogf");
  expect_self_contained(html, bundle);
  EXPECT_EQ(html.find("@@"), std::string::npos);  // every placeholder filled
}

TEST(ViewHtml, EmbeddedThreeJs) {
  if (!view::bundle_available()) {
    EXPECT_NE(view::bundle_unavailable_reason().find("npm ci"), std::string::npos);
    GTEST_SKIP() << view::bundle_unavailable_reason();
  }
  const view::Bundle bundle = view::embedded_bundle();
  EXPECT_FALSE(bundle.three_version.empty());
  std::vector<std::string> paths;
  for (const auto& m : bundle.modules) {
    paths.push_back(m.path);
    // Each module is the npm package's file, whole (the package the build bundled).
    auto file = FileData::open(fs::path(BONEYARD_THREE_DIR) / m.path);
    ASSERT_TRUE(file.ok()) << m.path << ": " << file.error().message;
    const auto b = file.value()->bytes();
    EXPECT_EQ(m.source, std::string(b.begin(), b.end())) << m.path;
  }
  for (const char* needed : {"build/three.core.js", "build/three.module.js", "examples/jsm/controls/OrbitControls.js",
                             "examples/jsm/loaders/GLTFLoader.js", "examples/jsm/utils/BufferGeometryUtils.js",
                             "examples/jsm/utils/SkeletonUtils.js"})
    EXPECT_NE(std::find(paths.begin(), paths.end(), needed), paths.end()) << needed;
  view::Item item;
  item.name = "x.ogf";
  expect_self_contained(view::build_html({item}, bundle, "x.ogf"), bundle);
}

}  // namespace
