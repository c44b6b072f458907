// A stand-in for the Noesis plugin API, just large enough to compile the .mar readers of Jayveer's
// MGS2 Noesis plugins (motion.h of MGS-KMS-EVM-Noesis and MGS-Master-Collection-Noesis) outside
// Noesis, so that their decoding can read boneyard's fixtures (tests/mgs2/noesis_mar_test.py puts
// this file at noesis/plugin/pluginshare.h of a scratch copy of the plugin's sources).
//
// What is Noesis's own and had to be written here, with the choice made:
//  * RichBitStream::ReadBits: Noesis's bit reader is closed source. Bits are taken LSB first (the
//    first bit of a byte is its lowest, a value's first bit its lowest), as boneyard reads them
//    (docs/mgs2-mar.md "Bit order"): this test therefore checks everything but the bit order, which
//    tests/mgs2/mar_test.cpp pins by hand. Reading past the stream is a failure (exit 3), not zeros.
//  * RichQuat::Transpose: the quaternion of the transposed rotation matrix, i.e. the conjugate.
//  * Noesis_AnimFromBonesAndKeyFramedAnim: records each bone's keys for the harness to print.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

typedef unsigned char BYTE;
#define MAX_NOESIS_PATH 4096

enum NoeKfConstants {
  NOEKF_INTERPOLATE_LINEAR = 1,
  NOEKF_SCALE_VECTOR_3 = 1,
  NOEKF_ROTATION_QUATERNION_4 = 1,
  NOEKF_TRANSLATION_VECTOR_3 = 1,
};

struct modelMatrix_t {
  float x1[3], x2[3], x3[3], o[3];
};
struct modelBone_t {
  char name[128];
  modelMatrix_t mat;
  struct {
    modelBone_t* parent;
  } eData;
};
struct noesisAnim_t {
  int id;
};

struct noeKeyFrameData_t {
  float time;
  int dataIndex;
};
struct noeKeyFramedBone_t {
  int boneIndex;
  noeKeyFrameData_t* rotationKeys;
  int numRotationKeys;
  int rotationType;
  int rotationInterpolation;
  noeKeyFrameData_t* translationKeys;
  int numTranslationKeys;
  int translationType;
  int translationInterpolation;
  noeKeyFrameData_t* scaleKeys;
  int numScaleKeys;
  int scaleType;
  int scaleInterpolation;
  float minTime, maxTime;
};
struct noeKeyFramedAnim_t {
  char* name;
  int numBones;
  float framesPerSecond;
  noeKeyFramedBone_t* kfBones;
  int numKfBones;
  float* data;
  int numDataFloats;
};

template <class T>
class CArrayList {
 public:
  void Append(const T& v) { items_.push_back(v); }
  int Num() const { return static_cast<int>(items_.size()); }
  T& operator[](int i) { return items_[static_cast<std::size_t>(i)]; }

 private:
  std::vector<T> items_;
};

class RichVec3 {
 public:
  RichVec3() = default;
  RichVec3(float x, float y, float z) : v_{x, y, z} {}
  float& operator[](int i) { return v_[i]; }
  float operator[](int i) const { return v_[i]; }
  float Normalize() {
    const float l = std::sqrt(v_[0] * v_[0] + v_[1] * v_[1] + v_[2] * v_[2]);
    if (l != 0.0f)
      for (float& c : v_) c *= 1.0f / l;
    return l;
  }

 private:
  float v_[3] = {0, 0, 0};
};

class RichQuat {
 public:
  RichQuat() = default;
  RichQuat(float x, float y, float z, float w) : q{x, y, z, w} {}
  float& operator[](int i) { return q[i]; }
  float operator[](int i) const { return q[i]; }
  float Length() const { return std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]); }
  float Normalize() {
    const float l = Length();
    if (l != 0.0f) {
      const float m = 1.0f / l;
      for (float& c : q) c *= m;
    }
    return l;
  }
  // The rotation matrix transposed and turned back into a quaternion: the conjugate.
  void Transpose() {
    q[0] = -q[0];
    q[1] = -q[1];
    q[2] = -q[2];
  }
  float q[4] = {0, 0, 0, 1};
};

class RichBitStream {
 public:
  RichBitStream(void* data, int size) : data_(static_cast<const unsigned char*>(data)), size_(size) {}
  int ReadBits(int n) {
    int v = 0;
    for (int i = 0; i < n; ++i, ++bit_) {
      if (bit_ / 8 >= size_) {
        std::fprintf(stderr, "RichBitStream: read past the end of a %d-byte stream\n", size_);
        std::exit(3);
      }
      if ((data_[bit_ / 8] >> (bit_ % 8)) & 1) v |= 1 << i;
    }
    return v;
  }
  int GetOffset() const { return static_cast<int>(bit_ / 8); }

 private:
  const unsigned char* data_;
  int size_;
  long bit_ = 0;
};

struct noeRAPI_t {
  BYTE* (*Noesis_LoadPairedFile)(const char* prompt, const char* ext, int& len, char* out);
  noesisAnim_t* (*Noesis_AnimFromBonesAndKeyFramedAnim)(modelBone_t* bones, int numBones, noeKeyFramedAnim_t* anim, bool transposed);
  noesisAnim_t* (*Noesis_AnimFromAnimsList)(CArrayList<noesisAnim_t*>& list, int num);
  void (*rpgSetExData_AnimsNum)(noesisAnim_t* anims, int num);
};
