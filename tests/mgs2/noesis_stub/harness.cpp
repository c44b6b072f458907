// Runs the .mar reader of a Jayveer MGS2 Noesis plugin (its motion.h, compiled from a scratch copy
// of the plugin's sources beside the stand-ins of pluginshare.h and half.h) on one file, and prints
// every key it hands to Noesis as one JSON object per line:
//   {"name": "...", "bones": [{"bone": i, "rotation": [[t, x, y, z, w], ...], "translation": [[t, x, y, z], ...]}]}
//
//   harness FILE.mar BONES
//
// Built with -DMGS2_PS2_PLUGIN (MGS-KMS-EVM-Noesis: loadMotion) or without (the Master Collection
// plugin: loadMarMotion).
#include <fstream>
#include <iterator>

#include "noesis/plugin/pluginshare.h"
#include "mgs/common/fileutil.h"  // the plugin includes it before motion.h
#include "motion.h"

namespace {

BYTE* no_paired_file(const char*, const char*, int&, char*) { return nullptr; }

noesisAnim_t* record(modelBone_t*, int, noeKeyFramedAnim_t* a, bool) {
  static noesisAnim_t anim;
  std::printf("{\"name\": \"%s\", \"bones\": [", a->name);
  for (int b = 0; b < a->numKfBones; ++b) {
    const noeKeyFramedBone_t& k = a->kfBones[b];
    std::printf("%s{\"bone\": %d, \"rotation\": [", b ? ", " : "", k.boneIndex);
    for (int i = 0; i < k.numRotationKeys; ++i) {
      const noeKeyFrameData_t& d = k.rotationKeys[i];
      const float* v = a->data + d.dataIndex;
      std::printf("%s[%.9g, %.9g, %.9g, %.9g, %.9g]", i ? ", " : "", d.time, v[0], v[1], v[2], v[3]);
    }
    std::printf("], \"translation\": [");
    for (int i = 0; i < k.numTranslationKeys; ++i) {
      const noeKeyFrameData_t& d = k.translationKeys[i];
      const float* v = a->data + d.dataIndex;
      std::printf("%s[%.9g, %.9g, %.9g, %.9g]", i ? ", " : "", d.time, v[0], v[1], v[2]);
    }
    std::printf("]}");
  }
  std::printf("]}\n");
  return &anim;
}

noesisAnim_t* from_list(CArrayList<noesisAnim_t*>&, int) { return nullptr; }
void set_anims(noesisAnim_t*, int) {}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: harness FILE.mar BONES\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<BYTE> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  const int n = std::atoi(argv[2]);
  std::vector<modelBone_t> bones(static_cast<std::size_t>(n));
  noeRAPI_t rapi{no_paired_file, record, from_list, set_anims};
#ifdef MGS2_PS2_PLUGIN
  loadMotion(&rapi, file.data(), bones.data(), n);
#else
  loadMarMotion(&rapi, file.data(), bones.data(), n);
#endif
  return 0;
}
