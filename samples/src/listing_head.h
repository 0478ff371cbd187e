// The head every XDK listing of the samples' shaders starts with: the compiler's config lines and,
// for a vertex shader, the vertex index in r0.x; and the tail of the vertex shaders that place the
// vertex at r1.xy (z 0, w 1) and pass r2 to interpolator 0. String literals, so a whole listing
// stays one literal: XNT_SAMPLE_VS_HEAD R"(    exec ...)" XNT_SAMPLE_VS_EXPORT_R1XY_R2.
#pragma once

#define XNT_SAMPLE_VS_HEAD                                                                       \
  "xvs_3_0\nconfig AutoSerialize=false\nconfig AutoResource=false\nconfig VsResource=1\n\n"      \
  "dcl_index r0.x\n\n"
#define XNT_SAMPLE_PS_HEAD "xps_3_0\nconfig AutoSerialize=false\nconfig AutoResource=false\n\n"
#define XNT_SAMPLE_VS_EXPORT_R1XY_R2                                                             \
  "    alloc position\n    exec\n    mov oPos.xy01, r1.xy\n    alloc interpolators\n    exece\n" \
  "    mov o0, r2\n"
