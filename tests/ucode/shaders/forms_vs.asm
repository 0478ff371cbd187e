// Vertex shader exercising the control-flow forms of a vertex shader, vertex fetch variants,
// every vector op and the export registers. Assembled by assembler_test.cpp; it is a syntax and
// encoding fixture, not a shader that computes anything useful.
xvs_3_0
config AutoSerialize=false

dcl_texcoord o0.xy
dcl_color1 o1

def c250, 0.5, -1.25, 3, 1e-05

    exec
    vfetch r1.xyz1, r0.x, position
    vfetch r2.xy__, r0.x, texcoord1, Offset=3
    vfetch_full r3, r0.x, vf5, Offset=12, DataFormat=FMT_32_32_32_32_FLOAT, Stride=16, Signed=true, NumFormat=integer, ExpAdjust=-3, RoundIndex=true, PrefetchCount=4
    vfetch_mini r4.zyx0, r0.x, vf5, Offset=16, DataFormat=FMT_8_8_8_8
    (p0) vfetch_full r5.__01, r[2+aL].y, vf94, DataFormat=FMT_16_16_FLOAT, Stride=2
    (!p0) vfetch_full r6, r0.w, vf93, DataFormat=FMT_2_10_10_10, Stride=1, SignedRFMode=true
    mark_vs_fetch_done
    alloc position
    exec Yield=true
    add r7, r1, c0
    mul r7.xy, -r1.zw, c_abs[3].x
    max r8, r7, r6
    min_sat r8.w, r7.x, c[4+a0].y
    seq r9, r1, r2
    sgt r9.x, r1.x, c1.y
    exec
    sge r10.yz, r1, r[3+aL]
    sne r10, r_abs[4], r5
    frc r11, r1
    trunc r11.xz, r2
    floor r12, -r3.wzyx
    mad r12, r1, c2, c3
    exec
    cndeq r13, r1, r2, r3
    cndge r13.x, r1.x, r2.y, c3.z
    cndgt r14, r1, c5, r3
    dp4 r14.x, c0, r1
    dp3 r14.y, c1.xyz, r1.xyz
    dp2add r14.z, r1.xy, c2.xy, r3.x
    exec
    cube r15, r1.zzxy, r1.yxzz
    max4 r15.x, r1
    setp_eq_push r16, r1, r2
    setp_ne_push r16, r1, r2
    setp_gt_push r16, r1, c2
    setp_ge_push r16, r1, c2
    exec
    dst r17, r1, r2
    maxa r17, r1, c2
    mov r18, c[10+aL]
    mul r19.xyz, r1.xyz, c0.xyz
    + adds r19.w, r1.xy
    mad r20, r1, c1, r2.w
    + rcp r21.x, r2.w
    (p0) add r22, r1, r2
    + (p0) mulsc r22.w, c6.x, r3.y
    exec
    (!p0) add r23, r1, r2
    + (!p0) subsc r23.w, -c6.x, -r4.z
    addsc r24.x, c[7+a0].w, r5.x
    sin r24.y, r1.x
    cos r24.z, r1.y
    maxas r25.x, c1.xy
    maxasf r25.y, r1.zw
    exec
    nop
    alloc interpolators
    exec
    mov oPos, r1
    mov o0.xy, r2.xy
    mov o1, r3
    mov oPts.x, r4.x
    mad oPos.xy01, r1.zw, c0.zw, r1.xy
    mul o2.x__1, r1, r2
    alloc export, Size=2
    exec
    mov eA, r5
    mov eM0, r6
    mov eM4.xz, r7
    + exp eM4.y, r1.x
    exece
    mov o3, r8
