// Pixel shader exercising texture fetch variants, every scalar op, kills, predication and the CF
// forms that need labels: a loop with break and continue, a call, jumps, conditional execs.
xps_3_0
dcl_texcoord r0.xy
dcl_color_centroid r1

    exec
    tfetch2D r2, r0.xy, tf0
    tfetch1D r3.x___, r0.x, tf1, MagFilter=point, MinFilter=linear
    tfetch3D r4, r0.xyz, tf2, MipFilter=basemap, AnisoFilter=max4to1, LODBias=-1.5
    tfetchCube r5, r0.xyz, tf3, UseComputedLOD=false, UseRegisterLOD=true, OffsetX=0.5, OffsetY=-1, OffsetZ=7.5
    tfetch2D r6.xyz1, r0.yx, tf4, FetchValidOnly=false, UnnormalizedTextureCoords=true, VolMagFilter=linear, VolMinFilter=point, ArbitraryFilter=4x4sym
    getBCF2D r7, r0.xy, tf5
    exec
    getCompTexLOD2D r7.x___, r0.xy, tf5
    getWeights2D r8, r0.xy, tf6, MagFilter=linear
    getGradients r9, r0.xy, tf6, UseRegisterGradients=true
    setTexLOD r0.z, tf6
    setGradientH r10.xyz, tf6
    setGradientV r11.xyz, tf6, Dimension=3D
    exec
    adds r12.x, r1.xy
    adds_prev r12.y, r1.x
    muls r12.z, r1.zw
    muls_prev r12.w, r2.x
    muls_prev2 r13.x, r2.xy
    maxs r13.y, r2.yx
    exec
    mins r13.z, c0.xy
    seqs r13.w, r1.x
    sgts r14.x, r1.y
    sges r14.y, r1.z
    snes r14.z, r1.w
    frcs r14.w, -r2.x
    exec
    truncs r15.x, r2.y
    floors r15.y, r2.z
    exp r15.z, r2.w
    logc r15.w, r3.x
    log r16.x, r3.y
    rcpc r16.y, r3.z
    exec
    rcpf r16.z, r3.w
    rcp r16.w, r4.x
    rsqc r17.x, r4.y
    rsqf r17.y, r4.z
    rsq r17.z, r4.w
    subs r17.w, r5.xy
    exec
    subs_prev r18.x, r5.z
    setp_eq r18.y, r5.w
    setp_ne r18.z, r6.x
    setp_gt r18.w, r6.y
    setp_ge r19.x, r6.z
    setp_inv r19.y, r6.w
    exec
    setp_pop r19.z, r7.x
    setp_clr r19.w
    setp_rstr r20.x, r7.y
    sqrt r20.y, r7.z
    retain_prev r20.z
    mov_sat r21, r2
    (p0) exec
    kills_eq r22.x, r8.x
    kills_gt r22.y, r8.y
    kills_ge r22.z, r8.z
    kills_ne r22.w, r8.w
    kills_one r23.x, r9.x
    kill_eq r23, r9, c0
    (!p0) exec PredicateClean=false
    kill_gt r23, r9, c0
    kill_ge r23, r9, c0
    kill_ne r23, r9, c0
    loop i0, Lafter
Lbody:
    cexec b3, PredicateClean=false
    add r24, r24, c1
    cjmp !b4, Lend
    (p0) jmp Lafter
    ccall b5, Lsub
Lend:
    (!p0) endloop i0, Lbody
Lafter:
    alloc colors
    cexece !b1
    mov oC0.xyz, r24
    + rcp oC0.w, r24.w
    mov oC1._y_1, r25
    mov_sat oDepth.x, r26.z
Lsub:
    (p0) exec
    mov oC2, c0
    ret
