/*
 * The lights of old solids (a CPlugLight's node, TrackMania 1.0 to TMF): GxLight (0x04001000)
 * and the kinds derived from it, ambient (0x04005000), point (0x04003000), ball (0x04002000),
 * spot (0x0400B000), frustum (0x0400A000), directional (0x04007000); and the functions that animate them, CFuncPlug
 * (0x0500B000), CFuncLight (0x05018000), CFuncLightColor (0x05019000).
 *
 * Layouts: docs/formats/gbx_solid.md "Light chunks" (GBX.NET's .chunkl files of these classes).
 */
#include "core/gbx/item/item_shapes.h"

static void f32s(rb_ar *ar, const char *const *keys, size_t n)
{
    RB_AR_EACH(ar, i, n) rb_ar_f32(ar, keys[i]);
}
#define F32S(ar, keys) f32s((ar), (keys), sizeof(keys) / sizeof((keys)[0]))

/* ---------- GxLight 0x04001000 ---------- */

GBX_FIELDS_CHUNK(light_008, {'v', "color"}, {'f', "intensity"}, {'X', "flags"}, {'f', "shadowIntensity"},
                 {'f', "flareIntensity"}, {'v', "shadowRgb"})

static void light_009(rb_ar *ar)
{
    static const char *const floats[] = {"intensity", "diffuseIntensity", "specularIntensity", "specularPower",
                                         "shadowIntensity", "flareIntensity"};
    gbx_vec3(ar, "color");
    rb_ar_x32(ar, "flags");
    F32S(ar, floats);
    gbx_vec3(ar, "shadowRgb");
}

static void light_00a(rb_ar *ar)
{
    static const char *const floats[] = {"intensity", "diffuseIntensity", "shadowIntensity", "flareIntensity"};
    rb_ar_u32(ar, "version");
    gbx_vec3(ar, "color");
    rb_ar_x32(ar, "flags");
    F32S(ar, floats);
    gbx_vec3(ar, "shadowRgb");
}

/* ---------- its kinds ---------- */

static void light_ambient_000(rb_ar *ar)
{
    static const char *const floats[] = {"shadeMinY", "shadeMaxY"};
    F32S(ar, floats);
}

static void light_point_003(rb_ar *ar) { rb_ar_f32(ar, "flareSize"); }

static void light_point_004(rb_ar *ar)
{
    static const char *const floats[] = {"flareSize", "flareBiasZ"};
    F32S(ar, floats);
}

static void light_ball_002(rb_ar *ar)
{
    static const char *const floats[] = {"radius", "attenuation1", "attenuation2", "emittingRadius"};
    F32S(ar, floats);
    gbx_vec3(ar, "ambientRgb");
}

static void light_ball_006(rb_ar *ar)
{
    static const char *const floats[] = {"radius",         "radiusSpecular", "radiusShadow", "radiusFlare",
                                         "emittingRadius", "attenuation1",   "attenuation2"};
    rb_ar_x32(ar, "flags");
    F32S(ar, floats);
    gbx_vec3(ar, "ambientRgb");
}

static void light_ball_008(rb_ar *ar)
{
    static const char *const floats[] = {"radius",         "radiusSpecular",       "radiusShadow", "radiusFlare",
                                         "emittingRadius", "emittingCylinderLenZ", "attHTnLR",     "attHTnLR2"};
    static const char *const tension[] = {"attHyper2DerivAt0", "attHyper2Tension"};
    rb_ar_x32(ar, "flags");
    F32S(ar, floats);
    gbx_vec3(ar, "ambientRgb");
    F32S(ar, tension);
}

static void one_f32(rb_ar *ar) { rb_ar_f32(ar, "u01"); }

static void light_spot_001(rb_ar *ar)
{
    static const char *const floats[] = {"angleInner", "angleOuter", "angleFlare", "falloffExponent"};
    F32S(ar, floats);
}

static const char *const SPOT_ANGLES[] = {"angleInner",       "angleOuter",       "angleFlare",
                                          "angleInnerShadow", "angleOuterShadow", "falloffExponent"};

static void light_spot_002(rb_ar *ar)
{
    rb_ar_x32(ar, "flags");
    F32S(ar, SPOT_ANGLES);
}

static void light_spot_003(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    rb_ar_x32(ar, "flags");
    F32S(ar, SPOT_ANGLES);
    if (version >= 1) {
        rb_ar_u8(ar, "u01");
        rb_ar_u8(ar, "u02");
    } else {
        rb_ar_i32(ar, "u03");
    }
}

/* GxLightFrustum 004: three i32, four f32, an i32 (GBX.NET names none); 006 a bool, a box and
 * a u32 */
static void light_frustum_004(rb_ar *ar)
{
    static const char *const floats[] = {"u04", "u05", "u06", "u07"};
    rb_ar_i32(ar, "u01");
    rb_ar_i32(ar, "u02");
    rb_ar_i32(ar, "u03");
    F32S(ar, floats);
    rb_ar_i32(ar, "u08");
}

static void light_frustum_006(rb_ar *ar)
{
    gbx_bool(ar, "u01");
    gbx_floats(ar, "u02", 6);
    rb_ar_u32(ar, "u03");
}

GBX_FIELDS_CHUNK(light_directional_001, {'b', "useBoundaryHint"}, {'v', "boundaryHintPos"})

static void light_directional_002(rb_ar *ar)
{
    static const char *const floats[] = {"dazzleAngleMax", "dazzleIntensity"};
    light_directional_001(ar);
    F32S(ar, floats);
}

static void light_directional_003(rb_ar *ar) { gbx_vec3(ar, "dblSidedRgb"); }

GBX_FIELDS_CHUNK(light_directional_004, {'v', "reverseRgb"}, {'f', "reverseIntens"})

static void light_directional_005(rb_ar *ar)
{
    static const char *const floats[] = {"emittAngularSize", "flareAngularSize"};
    F32S(ar, floats);
}

/* ---------- CFuncPlug 0x0500B000, CFuncLight 0x05018000, CFuncLightColor 0x05019000 ---------- */

GBX_FIELDS_CHUNK(func_plug_003, {'f', "period"}, {'f', "phase"}, {'b', "autoCreateMotion"})

static void func_plug_004(rb_ar *ar)
{
    func_plug_003(ar);
    gbx_bool(ar, "randomizePhase");
}

static void func_plug_005(rb_ar *ar)
{
    func_plug_004(ar);
    gbx_id(ar, "inputValId");
}

/* 000: sine or flicker, the flicker period and count */
GBX_FIELDS_CHUNK(func_light_000, {'i', "fctType"}, {'f', "flickPeriod"}, {'i', "flickCount"})

static void func_light_color_001(rb_ar *ar)
{
    gbx_floats(ar, "color0", 4);
    gbx_floats(ar, "color1", 4);
}

static void func_light_color_002(rb_ar *ar)
{
    func_light_color_001(ar);
    gbx_noderef(ar, "image");
}

static const gbx_chunk_def LIGHT_CHUNKS[] = {
    {0x04001008, 0, "light", light_008},
    {0x04001009, 0, "light (specular)", light_009},
    {0x0400100A, 0, "light (versioned)", light_00a},
    {0x04005000, 0, "ambient light", light_ambient_000},
    {0x04003003, 0, "point light flare", light_point_003},
    {0x04003004, 0, "point light flare and bias", light_point_004},
    {0x04002002, 0, "ball light (TM 1.0)", light_ball_002},
    {0x04002006, 0, "ball light", light_ball_006},
    {0x04002008, 0, "ball light (attenuation)", light_ball_008},
    {0x04002009, 0, "ball light 009", one_f32},
    {0x0400200A, 0, "ball light 00A", one_f32},
    {0x0400B001, 0, "spot light", light_spot_001},
    {0x0400B002, 0, "spot light (shadow angles)", light_spot_002},
    {0x0400B003, 0, "spot light (versioned)", light_spot_003},
    {0x0400A004, 0, "frustum light", light_frustum_004},
    {0x0400A006, 0, "frustum light box", light_frustum_006},
    {0x04007001, 0, "directional light boundary", light_directional_001},
    {0x04007002, 0, "directional light dazzle", light_directional_002},
    {0x04007003, 0, "directional light double-sided colour", light_directional_003},
    {0x04007004, 0, "directional light reverse", light_directional_004},
    {0x04007005, 0, "directional light sizes", light_directional_005},
    {0x0500B003, 0, "function period (TM 1.0)", func_plug_003},
    {0x0500B004, 0, "function period", func_plug_004},
    {0x0500B005, 0, "function period and input", func_plug_005},
    {0x05018000, 0, "light function", func_light_000},
    {0x05019001, 0, "light colour function", func_light_color_001},
    {0x05019002, 0, "light colour function and image", func_light_color_002},
};

const gbx_chunk_table gbx_light_chunks = {LIGHT_CHUNKS, sizeof LIGHT_CHUNKS / sizeof LIGHT_CHUNKS[0]};
