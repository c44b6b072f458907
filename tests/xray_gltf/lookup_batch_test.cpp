// Motion lookup (meshes root, case-insensitive paths, wildcards, later ref wins, missing refs)
// and batch conversion (a broken file fails alone, nothing half-written).
#include <fstream>

#include "scene/extras_json.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/batch.h"
#include "boneyard/registry/gltf_files.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/xray/xray_scene.h"
#include "gltf_test_support.h"
#include "ogf_fixture.h"

namespace boneyard::test {
namespace {

void write_bytes(const fs::path& p, const std::vector<std::uint8_t>& b) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// rich_spec's skeleton: "root" and "spine".
std::vector<std::uint8_t> rich_model(const std::string& refs) {
  Buf r;
  r.str(refs);
  return model({{"root", ""}, {"spine", "root"}}, refs.empty() ? nullptr : &r);
}

TEST(MotionLookup, MeshesRootCaseInsensitivePathsAndWildcards) {
  TempDir tmp;
  const fs::path meshes = tmp.path() / "gamedata" / "Meshes";
  write_bytes(meshes / "Anims" / "Walk.OMF", {1});
  write_bytes(meshes / "set" / "x1.omf", {1});
  write_bytes(meshes / "set" / "x2.omf", {1});
  write_bytes(meshes / "set" / "y.omf", {1});
  EXPECT_EQ(xray::default_meshes_root(meshes / "a" / "b" / "m.ogf"), meshes);
  EXPECT_EQ(xray::default_meshes_root(tmp.path() / "loose" / "m.ogf"), tmp.path() / "loose");
  EXPECT_EQ(resolve_motion_ref(meshes, "anims\\walk"), std::vector<fs::path>{meshes / "Anims" / "Walk.OMF"});
  EXPECT_EQ(resolve_motion_ref(meshes, "set\\x*"),
            (std::vector<fs::path>{meshes / "set" / "x1.omf", meshes / "set" / "x2.omf"}));
  EXPECT_EQ(resolve_motion_ref(meshes, "set\\*.omf").size(), 3u);
  std::string looked;
  EXPECT_TRUE(resolve_motion_ref(meshes, "set\\nothing", &looked).empty());
  EXPECT_EQ(looked, (meshes / "set" / "nothing.omf").string());
}

TEST(MotionLookup, LaterRefWinsAndMissingRefsAreWarnings) {
  TempDir tmp;
  const fs::path meshes = tmp.path() / "meshes";
  write_bytes(meshes / "anims" / "first.omf", omf_bytes(rich_spec()));
  OmfSpec second = rich_spec();
  second.keys.resize(1);  // only "walk", with other params
  second.params.resize(1);
  second.params[0].speed = 7.0f;
  write_bytes(meshes / "anims" / "second.omf", omf_bytes(second));
  const fs::path ogf_path = meshes / "models" / "m.ogf";
  write_bytes(ogf_path, rich_model("anims\\first, anims\\missing, anims\\second"));
  auto ogf = xray::read_ogf(open_file(ogf_path));
  ASSERT_TRUE(ogf);
  Diagnostics warnings;
  auto sc = ogf_scene_with_motions(ogf.value(), ogf_path, {}, warnings);
  ASSERT_TRUE(sc) << format_finding(sc.error(), "m.ogf");
  // The winners, in file order: "shoot" from the first ref, "walk" from the later one.
  ASSERT_EQ(sc->animations.size(), 2u);
  EXPECT_EQ(sc->animations[0].name, "shoot");
  EXPECT_EQ(sc->animations[1].name, "walk");
  EXPECT_FLOAT_EQ(json_of(sc->animations[1].extras).at("xray").at("speed").get<float>(), 7.0f);
  EXPECT_EQ(json_of(sc->animations[1].extras).at("xray").at("motion_set"), 1u);
  // Each set names the file its ref found, relative to the model's folder (the Blender add-on
  // keeps that file as its export template).
  const auto& sets = json_of(sc->extras).at("xray").at("motion_sets");
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].at("file"), "../anims/first.omf");
  EXPECT_EQ(sets[1].at("file"), "../anims/second.omf");
  ASSERT_EQ(warnings.count(Severity::warning), 1u);
  const auto& missing = warnings.findings()[0];
  EXPECT_NE(missing.message.find("not found"), std::string::npos);
  EXPECT_NE(missing.expected.find("missing.omf"), std::string::npos);  // lists where it looked
  EXPECT_EQ(warnings.count(Severity::info), 1u);                       // the replaced "walk"
  // Same model with --meshes pointing elsewhere: every ref is missing, still a valid skeleton.
  Diagnostics w2;
  auto bare = ogf_scene_with_motions(ogf.value(), ogf_path, tmp.path(), w2);
  ASSERT_TRUE(bare);
  EXPECT_TRUE(bare->animations.empty());
  EXPECT_EQ(w2.count(Severity::warning), 3u);
}

TEST(MotionLookup, MissingBoneNameAndCountMismatchAreClearErrors) {
  TempDir tmp;
  OmfSpec wrong = rich_spec();
  wrong.parts[0].bones[0].first = "neck";
  write_bytes(tmp.path() / "anims" / "wrong.omf", omf_bytes(wrong));
  write_bytes(tmp.path() / "m.ogf", rich_model("anims\\wrong"));
  auto ogf = xray::read_ogf(open_file(tmp.path() / "m.ogf"));
  ASSERT_TRUE(ogf);
  Diagnostics warnings;
  // A model's motion file made for another skeleton: the model exports without it, and a warning
  // names the file and why (issue 37: a game folder converts every model it can).
  auto sc = ogf_scene_with_motions(ogf.value(), tmp.path() / "m.ogf", {}, warnings);
  ASSERT_TRUE(sc) << sc.error().message;
  EXPECT_TRUE(sc->animations.empty());
  ASSERT_EQ(warnings.count(Severity::warning), 1u);
  const Finding& left_out = warnings.findings()[0];
  EXPECT_NE(left_out.message.find("motion file left out: it does not fit the model's skeleton (bone name missing"),
            std::string::npos)
      << left_out.message;
  EXPECT_EQ(left_out.found, "neck");
  EXPECT_NE(left_out.path.find("wrong.omf"), std::string::npos);

  write_bytes(tmp.path() / "three.ogf", model({{"root", ""}, {"spine", "root"}, {"head", "spine"}}));
  auto three = xray::read_ogf(open_file(tmp.path() / "three.ogf"));
  auto omf = xray::read_omf(FileData::from_vector(omf_bytes(rich_spec())));
  ASSERT_TRUE(three && omf);
  auto sk = xray::skeleton_scene(three.value(), "three");
  ASSERT_TRUE(sk);
  auto added = xray::add_motions(sk.value(), &three.value(), omf->motions, "rich", warnings);
  ASSERT_FALSE(added.ok());
  EXPECT_NE(added.error().message.find("bone-count mismatch"), std::string::npos);
}

TEST(Batch, BrokenOmfFailsAloneAndLeavesNoOutput) {
  TempDir tmp;
  const fs::path in = tmp.path() / "in" / "meshes";
  write_bytes(in / "anims" / "rich.omf", omf_bytes(rich_spec()));
  write_bytes(in / "models" / "m.ogf", rich_model("anims\\rich"));
  write_bytes(in / "models" / "bare.ogf", rich_model(""));
  write_bytes(in / "loose" / "other.omf", omf_bytes(rich_spec()));  // referenced by nobody
  auto cut = omf_bytes(rich_spec());
  cut.resize(40);
  write_bytes(in / "loose" / "broken.omf", cut);
  BatchOptions o;
  o.input_dir = in;
  o.output_dir = tmp.path() / "out";
  o.threads = 2;
  std::size_t calls = 0;
  o.progress = [&](std::size_t done, std::size_t total, const BatchItem&) {
    ++calls;
    EXPECT_LE(done, total);
  };
  const auto r = convert_tree(o);
  ASSERT_EQ(r.items.size(), 4u);  // 2 models + 2 unreferenced OMFs (rich.omf is m.ogf's)
  EXPECT_EQ(calls, 4u);
  EXPECT_EQ(r.failed, 1u);
  EXPECT_EQ(r.converted, 2u);      // the models
  EXPECT_EQ(r.with_warnings, 1u);  // other.omf: flat armature
  for (const auto& item : r.items) {
    SCOPED_TRACE(item.input.string());
    const bool broken = item.input.filename() == "broken.omf";
    EXPECT_EQ(item.status == BatchItem::Status::failed, broken);
    EXPECT_EQ(fs::exists(item.output), !broken);
    if (broken) {
      EXPECT_FALSE(item.findings.empty());
    }
  }
  EXPECT_TRUE(fs::exists(tmp.path() / "out" / "models" / "m.glb"));
  // No temporaries left next to the outputs.
  for (const auto& e : fs::recursive_directory_iterator(tmp.path() / "out"))
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

// The batch looks up each model's refs once, while finding which .omf files are some model's, and
// converts the model with what it found (before, every ref was looked up again per conversion).
TEST(Batch, LooksUpEachModelsMotionRefsOnce) {
  TempDir tmp;
  const fs::path in = tmp.path() / "in" / "meshes";
  write_bytes(in / "anims" / "rich.omf", omf_bytes(rich_spec()));
  write_bytes(in / "models" / "one.ogf", rich_model("ANIMS\\Rich,anims\\gone"));  // case differs; missing
  write_bytes(in / "models" / "two.ogf", rich_model("anims\\rich"));
  BatchOptions o;
  o.input_dir = in;
  o.output_dir = tmp.path() / "out";
  o.threads = 2;
  const std::size_t before = motion_ref_lookups();
  const auto r = convert_tree(o);
  EXPECT_EQ(motion_ref_lookups() - before, 3u) << "one lookup per ref of each model";
  ASSERT_EQ(r.items.size(), 2u);  // rich.omf is the models' motions, not an item of its own
  EXPECT_EQ(r.items[0].status, BatchItem::Status::warnings);
  ASSERT_EQ(r.items[0].findings.size(), 1u);
  EXPECT_NE(r.items[0].findings[0].message.find("motion file not found"), std::string::npos);
  EXPECT_NE(r.items[0].findings[0].expected.find("gone.omf"), std::string::npos);
  EXPECT_EQ(r.items[1].status, BatchItem::Status::converted);
  for (const char* name : {"one.glb", "two.glb"}) {
    const auto glb = read_file(tmp.path() / "out" / "models" / name);
    const std::string text(glb.begin(), glb.end());
    EXPECT_NE(text.find("\"name\":\"walk\""), std::string::npos) << name << ": the motions were found";
  }
}

TEST(GltfWriter, GltfContainerWritesBinBesideIt) {
  TempDir tmp;
  auto omf = xray::read_omf(FileData::from_vector(omf_bytes(rich_spec())));
  ASSERT_TRUE(omf);
  Diagnostics warnings;
  auto sc = xray::omf_to_scene(omf->motions, {"rich.omf", {}, {}}, warnings);
  ASSERT_TRUE(sc);
  ASSERT_TRUE(write_gltf_files(sc.value(), tmp.path() / "a b.gltf").ok());
  EXPECT_TRUE(fs::exists(tmp.path() / "a b.bin"));
  std::ifstream in(tmp.path() / "a b.gltf");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"uri\":\"a%20b.bin\""), std::string::npos);
  const auto glb = gltf::write(sc.value(), gltf::Container::glb).main;
  ASSERT_GE(glb.size(), 20u);
  EXPECT_EQ(glb.size() % 4, 0u);
  EXPECT_EQ(load_le<std::uint32_t>(glb.data() + 8), glb.size());
}

}  // namespace
}  // namespace boneyard::test
