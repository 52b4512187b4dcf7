/**
 * The embedded sample install: a small, fully synthetic Shadow of War-shaped game folder that
 * exercises every rule of the mount (search order, shadowed copies, a loose Game folder, a path
 * index, skipped cfg lines, an empty archive, an archive the cfg does not name). Everything is
 * written by the project's own writers; no game data is used. Returned as files in memory; the
 * CLI (`arch06 make-sample`) writes them to disk.
 */
import { LtarWriter } from '../formats/archive/ltar/writer';
import { writePathIndex } from '../formats/archive/pathIndex';
import { PATH_INDEX_NAME } from '../formats/archive/ltar/layout';
import { writeEmbb } from '../formats/bundle/embbWriter';
import { writeBndl } from '../formats/bundle/bndlWriter';
import { QuadrantPicture, bc1QuadrantChain, writeDds, writeTexa, writeTexr } from '../formats/texture/writer';
import { writeMmsh } from '../formats/mesh/mmsh/writer';
import { writeSkel } from '../formats/mesh/skel/writer';
import { writeRegistry } from '../formats/registry/writer';
import type { RegistryWriterLayer } from '../formats/registry/writer';
import { writeScri } from '../formats/script/writer';
import { writeSkdb } from '../formats/strings/writer';
import { stringHash } from '../hash/stringHash';

export interface SampleFile {
  /** Path relative to the install root, with / separators. */
  path: string;
  bytes: Uint8Array;
}

const text = (s: string): Uint8Array => Buffer.from(s.replace(/^\n/, ''), 'utf8');

/** Deterministic filler so multi-chunk entries have recognisable, checkable content. */
function patterned(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = i % 64 === 0 ? 0x0a : 0x20 + ((x >>> 0) % 95);
  }
  return out;
}

const SAMPLE_CFG = `; arch06 sample install: archive config list.
; Same shape as the game's x64/default.archcfg: one path per line, relative to this folder.
; file search order is from the bottom up

..\\Game
..\\GameDev
..\\Base.arch06
..\\Patch_00_LC.arch06
..\\Great_Hall.arch06          ; listed but not shipped: skipped, as in the game
..\\Patch_01.arch06
..\\Patch_02.arch06
..\\HotChunk.arch06
`;

/** The sample bundle (seed 004 "Bundles"): a manifest + container pair in Base, its manifest patched in Patch_02. */
export const SAMPLE_BUNDLE = 'bundles\\characters\\orc_sample';
const ORC = 'characters\\orcs\\orc_sample';
const orcMembers = [
  { path: `${ORC}\\body.txt`, bytes: text('orc_sample body: served from the container in Base\n') },
  { path: `${ORC}\\head.txt`, bytes: text('orc_sample head: served from the container in Base\n') },
  { path: `${ORC}\\weapon.txt`, bytes: text('orc_sample weapon: a cleaver\n') },
];
const orcBanner = text('orc_sample banner: declared by the Patch_02 manifest, ships loose in Patch_02\n');

/** The sample texture (seed 004 "Tiers"): a BC1 .tex in Base, its 512x512 .tex0 tier in Patch_01. */
export const SAMPLE_TEXTURE = 'textures\\sample\\sample_banner_d.tex';
/** Red, green, blue, yellow quadrants: exact in RGB565, so decoded corners match exactly. */
export const SAMPLE_TEXTURE_PICTURE: QuadrantPicture = {
  quadrants: [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
  ],
};

/** The .tex: 256x256 BC1 with its full mip chain; the name field and dimension pair point at the .tex0. */
export function sampleTexture(): Uint8Array {
  const dds = writeDds({ width: 256, height: 256, format: 'BC1', mips: bc1QuadrantChain(256, SAMPLE_TEXTURE_PICTURE) });
  return writeTexr({ path: `${SAMPLE_TEXTURE}0`, width: 512, height: 512, dds });
}

/** The .tex0 tier: the 512x512 top mip alone; its name field names the .tex. */
export function sampleTextureTier0(): Uint8Array {
  const dds = writeDds({ width: 512, height: 512, format: 'BC1', mips: bc1QuadrantChain(512, SAMPLE_TEXTURE_PICTURE, 1) });
  return writeTexr({ path: SAMPLE_TEXTURE, width: 512, height: 512, dds });
}

/** The sample texture array (seed 004 "Texture arrays"): three 64x64 BC1 slices with full mip chains. */
export const SAMPLE_TEXTURE_ARRAY = 'textures\\sample\\sample_ground_array.texa';
export const SAMPLE_TEXTURE_ARRAY_SLICES = [
  'textures\\sample\\ground_grass_d.tex',
  'textures\\sample\\ground_mud_d.tex',
  'textures\\sample\\ground_rock_d.tex',
];
const ARRAY_PICTURES: QuadrantPicture[] = [
  {
    quadrants: [
      [0, 255, 0],
      [0, 128, 0],
      [0, 255, 0],
      [0, 128, 0],
    ],
  },
  {
    quadrants: [
      [128, 64, 0],
      [96, 48, 0],
      [128, 64, 0],
      [96, 48, 0],
    ],
  },
  {
    quadrants: [
      [128, 128, 128],
      [64, 64, 64],
      [128, 128, 128],
      [64, 64, 64],
    ],
  },
];

export function sampleTextureArray(): Uint8Array {
  const [first, ...rest] = ARRAY_PICTURES.map((p) => bc1QuadrantChain(64, p));
  const dds = writeDds({ width: 64, height: 64, format: 'BC1', mips: first, extraSlices: rest });
  return writeTexa({ path: SAMPLE_TEXTURE_ARRAY, slicePaths: SAMPLE_TEXTURE_ARRAY_SLICES, dds });
}

/** The array's .texa0 tier: the 128x128 top level of each slice alone (Patch_01). */
export function sampleTextureArrayTier0(): Uint8Array {
  const [first, ...rest] = ARRAY_PICTURES.map((p) => bc1QuadrantChain(128, p, 1));
  const dds = writeDds({ width: 128, height: 128, format: 'BC1', mips: first, extraSlices: rest });
  return writeTexa({ path: SAMPLE_TEXTURE_ARRAY, slicePaths: SAMPLE_TEXTURE_ARRAY_SLICES, dds });
}

/** The sample skinned mesh and its skeleton (seed 004 "Shipped weapons": grip at the origin, blade along +Y). */
export const SAMPLE_MESH = 'characters\\sample\\sample_sword.mesh';
export const SAMPLE_SKELETON = 'characters\\sample\\sample_sword.skel';
/**
 * Bones, depth-first, model space, identity rotations: Root > Blade > Blade_Tip, Root > Grip. The
 * name-table (breadth-first) order is Root, Blade, Grip, Blade_Tip, so palettes exercise it.
 */
export const SAMPLE_SWORD_BONES: { name: string; parent: number; y: number }[] = [
  { name: 'Root', parent: -1, y: 0 },
  { name: 'Blade', parent: 0, y: 10 },
  { name: 'Blade_Tip', parent: 1, y: 70 },
  { name: 'Grip', parent: 0, y: -10 },
];
/** The LOD groups (SKEL mesh parts): material slot 0 for the blade, 1 for the grip and guard; LOD 1 from 500 cm, nothing from 3000 cm. */
export const SAMPLE_SWORD_GROUPS = ['Sword_Blade', 'Sword_Grip'];

interface SwordGeometry {
  positions: number[];
  normals: number[];
  tangents: number[];
  bitangents: number[];
  uvs: number[];
  indices: number[];
  joints: number[];
  weights: number[];
}

/** A closed prism through rings of (x, z) corners at heights y; one flat-shaded strip per side. */
function swordPrism(g: SwordGeometry, rings: { y: number; pts: [number, number][] }[], skin: (y: number) => [number[], number[]]): void {
  const k = rings[0]!.pts.length;
  const y0 = rings[0]!.y;
  const y1 = rings[rings.length - 1]!.y;
  for (let j = 0; j < k; j++) {
    const first = g.positions.length / 3;
    const a = rings[0]!.pts[j]!;
    const b = rings[0]!.pts[(j + 1) % k]!;
    const len = Math.hypot(b[1] - a[1], a[0] - b[0]) || 1;
    let n: [number, number] = [(b[1] - a[1]) / len, (a[0] - b[0]) / len];
    if (n[0] * (a[0] + b[0]) + n[1] * (a[1] + b[1]) < 0) n = [-n[0], -n[1]];
    for (const r of rings) {
      for (const c of [j, (j + 1) % k]) {
        const p = r.pts[c]!;
        g.positions.push(p[0], r.y, p[1]);
        g.normals.push(n[0], 0, n[1]);
        g.uvs.push((j + (c === j ? 0 : 1)) / k, 1 - (r.y - y0) / (y1 - y0));
        const [jo, we] = skin(r.y);
        g.joints.push(...jo);
        g.weights.push(...we);
      }
    }
    for (let i = 0; i + 1 < rings.length; i++) swordQuad(g, first + 2 * i, first + 2 * i + 1, first + 2 * i + 3, first + 2 * i + 2);
  }
}

/** A flat cap over one ring (fan), facing +Y (up) or -Y. */
function swordCap(g: SwordGeometry, y: number, pts: [number, number][], up: boolean, skin: (y: number) => [number[], number[]]): void {
  const first = g.positions.length / 3;
  for (const p of pts) {
    g.positions.push(p[0], y, p[1]);
    g.normals.push(0, up ? 1 : -1, 0);
    g.uvs.push(0.5 + p[0] / 20, 0.5 + p[1] / 20);
    const [jo, we] = skin(y);
    g.joints.push(...jo);
    g.weights.push(...we);
  }
  for (let i = 1; i + 1 < pts.length; i++) swordTri(g, first, first + i, first + i + 1);
}

function swordQuad(g: SwordGeometry, a: number, b: number, c: number, d: number): void {
  swordTri(g, a, b, c);
  swordTri(g, a, c, d);
}

/** One triangle, wound counter-clockwise around its vertices' normal; degenerate ones are skipped. */
function swordTri(g: SwordGeometry, a: number, b: number, c: number): void {
  const P = (i: number): number[] => g.positions.slice(3 * i, 3 * i + 3);
  const [pa, pb, pc] = [P(a), P(b), P(c)];
  const e1 = [pb[0]! - pa[0]!, pb[1]! - pa[1]!, pb[2]! - pa[2]!];
  const e2 = [pc[0]! - pa[0]!, pc[1]! - pa[1]!, pc[2]! - pa[2]!];
  const cr = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
  if (Math.hypot(cr[0]!, cr[1]!, cr[2]!) < 1e-6) return;
  const n = g.normals.slice(3 * a, 3 * a + 3);
  if (cr[0]! * n[0]! + cr[1]! * n[1]! + cr[2]! * n[2]! < 0) g.indices.push(a, c, b);
  else g.indices.push(a, b, c);
}

/** Tangents along +dP/du and bitangents along +dP/dv (seed 004), accumulated per vertex and orthogonalised. */
function swordTangents(g: SwordGeometry): void {
  const n = g.positions.length / 3;
  const t = new Float64Array(3 * n);
  const b = new Float64Array(3 * n);
  for (let i = 0; i < g.indices.length; i += 3) {
    const [i0, i1, i2] = [g.indices[i]!, g.indices[i + 1]!, g.indices[i + 2]!];
    const p = (v: number, k: number): number => g.positions[3 * v + k]!;
    const uv = (v: number, k: number): number => g.uvs[2 * v + k]!;
    const du1 = uv(i1, 0) - uv(i0, 0),
      dv1 = uv(i1, 1) - uv(i0, 1),
      du2 = uv(i2, 0) - uv(i0, 0),
      dv2 = uv(i2, 1) - uv(i0, 1);
    const det = du1 * dv2 - du2 * dv1;
    if (Math.abs(det) < 1e-12) continue;
    for (let k = 0; k < 3; k++) {
      const e1 = p(i1, k) - p(i0, k),
        e2 = p(i2, k) - p(i0, k);
      const tk = (e1 * dv2 - e2 * dv1) / det;
      const bk = (e2 * du1 - e1 * du2) / det;
      for (const v of [i0, i1, i2]) {
        t[3 * v + k] += tk;
        b[3 * v + k] += bk;
      }
    }
  }
  for (let v = 0; v < n; v++) {
    const nn = [g.normals[3 * v]!, g.normals[3 * v + 1]!, g.normals[3 * v + 2]!];
    for (const [src, out] of [
      [t, g.tangents],
      [b, g.bitangents],
    ] as const) {
      const x = [src[3 * v]!, src[3 * v + 1]!, src[3 * v + 2]!];
      const d = x[0]! * nn[0]! + x[1]! * nn[1]! + x[2]! * nn[2]!;
      const o = [x[0]! - d * nn[0]!, x[1]! - d * nn[1]!, x[2]! - d * nn[2]!];
      const len = Math.hypot(o[0]!, o[1]!, o[2]!);
      if (len > 1e-9) out.push(o[0]! / len, o[1]! / len, o[2]! / len);
      else out.push(...(src === t ? [1, 0, 0] : [0, 1, 0]));
    }
  }
}

/** The blade (a diamond section tapering to the tip at 102 cm) and the grip with its guard, at two levels of detail. */
function swordGeometry(detail: 0 | 1): { blade: SwordGeometry; grip: SwordGeometry } {
  const empty = (): SwordGeometry => ({ positions: [], normals: [], tangents: [], bitangents: [], uvs: [], indices: [], joints: [], weights: [] });
  const blade = empty();
  const grip = empty();
  // Blade: Blade below 40 cm, blending to Blade_Tip by 80 cm.
  const bladeSkin = (y: number): [number[], number[]] => {
    const f = Math.min(1, Math.max(0, (y - 40) / 40));
    return [
      [1, 2, 0, 0],
      [1 - f, f, 0, 0],
    ];
  };
  const segments = detail === 0 ? 15 : 7;
  const rings: { y: number; pts: [number, number][] }[] = [];
  for (let i = 0; i <= segments; i++) {
    const y = 2 + (90 * i) / segments;
    const w = 3.5 * (1 - (0.3 * (y - 2)) / 90);
    const t = 0.8 * (1 - (0.4 * (y - 2)) / 90);
    rings.push({
      y,
      pts: [
        [0, w],
        [t, 0],
        [0, -w],
        [-t, 0],
      ],
    });
  }
  rings.push({
    y: 102,
    pts: [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ],
  });
  swordPrism(blade, rings, bladeSkin);
  // Grip: an 8- (or 4-) sided handle from -20 to 0 on Grip and Root, a pommel cap, a guard box on Root.
  const gripSkin = (y: number): [number[], number[]] => {
    const f = Math.min(1, Math.max(0, -y / 20));
    return [
      [3, 0, 0, 0],
      [f, 1 - f, 0, 0],
    ];
  };
  const sides = detail === 0 ? 8 : 4;
  const circle = (r: number): [number, number][] =>
    Array.from({ length: sides }, (_, i) => [r * Math.cos((2 * Math.PI * i) / sides), r * Math.sin((2 * Math.PI * i) / sides)] as [number, number]);
  const gripRings = (detail === 0 ? [-20, -15, -10, -5, 0] : [-20, -10, 0]).map((y) => ({ y, pts: circle(1.5) }));
  swordPrism(grip, gripRings, gripSkin);
  swordCap(grip, -20, circle(1.5), false, gripSkin);
  const guard: [number, number][] = [
    [1.5, 8],
    [-1.5, 8],
    [-1.5, -8],
    [1.5, -8],
  ];
  const rootSkin = (): [number[], number[]] => [
    [0, 0, 0, 0],
    [1, 0, 0, 0],
  ];
  swordPrism(
    grip,
    [
      { y: 0, pts: guard },
      { y: 2, pts: guard },
    ],
    rootSkin,
  );
  swordCap(grip, 0, guard, false, rootSkin);
  swordCap(grip, 2, guard, true, rootSkin);
  swordTangents(blade);
  swordTangents(grip);
  return { blade, grip };
}

/** The sample .mesh: blocks 0/1 = blade/grip at LOD 0, blocks 2/3 at LOD 1 (about half the triangles). */
export function sampleSwordMesh(): Uint8Array {
  const lod0 = swordGeometry(0);
  const lod1 = swordGeometry(1);
  return writeMmsh({
    blocks: [lod0.blade, lod0.grip, lod1.blade, lod1.grip].map((g) => ({ parts: [g] })),
    bones: SAMPLE_SWORD_BONES.map((b) => ({ name: b.name, parent: b.parent, translation: [0, b.y, 0], rotation: [0, 0, 0, 1] })),
    groups: [
      {
        name: SAMPLE_SWORD_GROUPS[0],
        chain: [
          { block: 0, material: 0, distance: 0 },
          { block: 2, material: 0, distance: 500 },
          { block: -1, material: 0, distance: 3000 },
        ],
      },
      {
        name: SAMPLE_SWORD_GROUPS[1],
        chain: [
          { block: 1, material: 1, distance: 0 },
          { block: 3, material: 1, distance: 500 },
          { block: -1, material: 0, distance: 3000 },
        ],
      },
    ],
    cullDistance: 140,
  });
}

/** The sample .skel: the bones above and the two mesh parts whose names hash to the mesh's LOD group ids. */
export function sampleSwordSkeleton(): Uint8Array {
  return writeSkel({
    bones: SAMPLE_SWORD_BONES.map((b) => ({ name: b.name, parent: b.parent, translation: [0, b.y, 0], rotation: [0, 0, 0, 1] })),
    parts: [
      {
        name: SAMPLE_SWORD_GROUPS[0]!,
        lods: [
          { distance: 0, material: 0 },
          { distance: 500, material: 0 },
          { distance: 3000, material: 0 },
        ],
      },
      {
        name: SAMPLE_SWORD_GROUPS[1]!,
        lods: [
          { distance: 0, material: 1 },
          { distance: 500, material: 1 },
          { distance: 3000, material: 0 },
        ],
      },
    ],
    anix: ['characters\\sample\\sample_sword.anix'],
    masks: [{ name: 'Twitch' }],
    sockets: [{ bone: 2, name: 'Socket_Tip', rotation: [0, 0, 0, 1], translation: [0, 102, 0] }],
    distance0x44: 140,
    bounds: { min: [-8, -20, -8], max: [8, 102, 8] },
  });
}

/**
 * The sample world layer (seed 001 "World parts", shaped like the four retail layers of
 * Patch_00.arch06): a `.bndl`/`.embb` pair whose container holds the layer's registry (`.objres`:
 * OBJL + SCRB + ONLS) and its script (`.scripts`, SCRI v1 source), in Base; a standalone patched
 * registry of the same path in Patch_02 (the patch rule: it replaces the one in the container).
 */
export const SAMPLE_LAYER = 'worlds\\retail\\sample\\sectionsandlayers\\fortgate';
export const SAMPLE_LAYER_REGISTRY = `${SAMPLE_LAYER}.objres`;
export const SAMPLE_LAYER_SCRIPT = `${SAMPLE_LAYER}.scripts`;

/** The layer's script in the retail files' style: hstructure prototypes, then one section table of bindings. */
export const SAMPLE_LAYER_SOURCE = `-- SCRIPTOBJECT PROTOTYPES (search for IMPLEMENTATION to get to the actual code)

hstructure _gatecontroller_SO_Script_6d1f0a42_meta
	__constructor : ifunction
	__index : _gatecontroller_SO_Script_6d1f0a42_meta
	Init : ifunction
	OpenGate : ifunction
	__eventmap : table
end
hstructure _gatecontroller_SO_Script_6d1f0a42_inst
	meta : _gatecontroller_SO_Script_6d1f0a42_meta
	scriptId : table
	lookupId : luserdata
	GateRelay : object
	OpenDelay : number
	IsOpen : boolean
end

-- IMPLEMENTATION
local section_5a3c9e21 = {
-- SC.Script (prefabs\\gameplay\\sample\\gatecontroller.prefab06c)
_gatecontroller_SC_Script_2f4e8a10 = function (self, threadId, scriptId)
	local Instance = scriptId.Instance
	local SO = ScriptObject.Create( scriptId, "SO"  )
		SO:Init()
end,
-- SO.Script (prefabs\\gameplay\\sample\\gatecontroller.prefab06c)
_gatecontroller_SO_Script_7b19c3d5 = hmake _gatecontroller_SO_Script_6d1f0a42_meta {
	__constructor = function ( parent, scriptId )
		local self = hmake _gatecontroller_SO_Script_6d1f0a42_inst {}
		setmetatable(self, parent)
		parent.__index = parent -- set the index metamethod on first construct because we couldn't earlier.
		self.scriptId=scriptId
		self.GateRelay = ScriptRelay.Create( self.scriptId, WBScriptPropString( self.scriptId, "GateRelay", "" ), true, false )
		self.OpenDelay = WBScriptPropFloat( self.scriptId, "OpenDelay", 5 )
		self.IsOpen = false
		-- event handlers defined in this script object.
		if (parent.__eventmap == nil) then
			parent.__eventmap = {}
			parent.__eventmap[0x19f44e0dhi] = {func = parent.OpenGate, name = "OpenGate"};
		end
		return self
	end,
	Init = function ( self )
		local Instance = self.scriptId.Instance
			WBEventSystem:Add( self.GateRelay, self.GateRelay.OnTrigger, { self.scriptId, self.lookupId, 0x19f44e0dhi } );

	end
,	OpenGate = function ( self, args )
		local Instance = self.scriptId.Instance
			if ( not self.IsOpen) then
		LithThreadSleep( args.threadId, self.OpenDelay )
		self.IsOpen = true
		GameConsole:ChannelDebug(DBOutputChannel.Design, "UI_Sample_GateOpen")
			end

	end
,},
-- SR.Script1 (prefabs\\gameplay\\sample\\gatealarm.prefab06c)
_gatealarm_SR_Script1_0c1d2e3f = function (self, threadId, scriptId)
	local Instance = scriptId.Instance
	local SR = ScriptRelay.Create( scriptId, "SR"  )
		LithThreadSleep( threadId, 2 )
		GameConsole:ChannelWarning(DBOutputChannel.Design, "UI_Sample_GateAlarm")
		SR:Trigger(GameBase.None)
end,
-- QR.Script1 (prefabs\\gameplay\\sample\\gatequest.prefab06c)
_gatequest_QR_Script1_48d7e0b6 = function (self, threadId, scriptId)
	local Instance = scriptId.Instance
	local Stage = 0x00000002a1f0c3d4hl
		if ((Stage ~= 0) and not System:IsDayTime()) then
		GameConsole:ChannelDebug(DBOutputChannel.Design, ("Gate quest stage " .. tostring(Stage)))
			end

end,
}
_G.loadedresource = section_5a3c9e21
`;

/** The layer's objects (OBJL), as the container's registry lists them. */
function sampleLayerObjects(patched: boolean): RegistryWriterLayer['objects'] {
  return [
    { className: 'WorldInitializer', name: 'WorldInitializer' },
    { className: 'WorldCollision', name: 'PhysicsBSP', propertyIndex: 1 },
    { className: 'StartupCommand', name: 'GateCon.SC', group: 'GateCon', propertyIndex: 2, position: [-1250, 310.5, 4075], templateId: 0x289e4ce3 },
    {
      className: 'ScriptObject',
      name: 'GateCon.SO',
      group: 'GateCon',
      propertyIndex: 3,
      // Patch_02 moves the gate controller 2 m along +x.
      position: patched ? [-1050, 310.5, 4075] : [-1250, 310.5, 4075],
      templateId: 0xf2f65363,
    },
    { className: 'ScriptRelay', name: 'GateAlarm_00.SR', group: 'GateAlarm_00', propertyIndex: 4, position: [-900, 296, 4210.25], templateId: 0x5e6dea28 },
    { className: 'ScriptRelay', name: 'GateAlarm_01.SR', group: 'GateAlarm_01', propertyIndex: 4, position: [-1600, 296, 4210.25], templateId: 0x5e6dea28 },
    {
      className: 'QuestRelay',
      name: 'GateQuest.QR',
      propertyIndex: 5,
      position: [-1250, 300, 3900],
      rotation: [0, 0.7071067690849304, 0, 0.7071067690849304],
      templateId: 0x0e1c3a57,
    },
    { className: 'Group', name: 'GateGuards', propertyIndex: 6, position: [-1250, 296, 4300], templateId: 0x110cc26d },
    { className: 'AINodeRoute', name: 'GateRoute_00.RN', position: [-1180, 296, 4420], templateId: 0xa6ebfce0 },
    // Patch_02 adds a third alarm relay, bound to the same function as the other two.
    ...(patched
      ? [
          {
            className: 'ScriptRelay',
            name: 'GateAlarm_02.SR',
            group: 'GateAlarm_02',
            propertyIndex: 4,
            position: [-1250, 296, 4500] as [number, number, number],
            templateId: 0x5e6dea28,
          },
        ]
      : []),
  ];
}

/** The layer's registry: the container's copy, or Patch_02's standalone one (one object moved, one added). */
export function sampleLayerRegistry(patched = false): Uint8Array {
  const alarm = [{ event: 'Script1', function: '_gatealarm_SR_Script1_0c1d2e3f' }];
  return writeRegistry({
    scriptPath: SAMPLE_LAYER_SCRIPT,
    hash: 0x5a3c9e21,
    objects: sampleLayerObjects(patched),
    bindings: [
      { name: 'GateCon.SC', bindings: [{ event: 'Script', function: '_gatecontroller_SC_Script_2f4e8a10' }] },
      { name: 'GateCon.SO', bindings: [{ event: 'Script', function: '_gatecontroller_SO_Script_7b19c3d5' }] },
      { name: 'GateAlarm_00.SR', bindings: alarm },
      { name: 'GateAlarm_01.SR', bindings: alarm },
      ...(patched ? [{ name: 'GateAlarm_02.SR', bindings: alarm }] : []),
      { name: 'GateQuest.QR', bindings: [{ event: 'Script1', function: '_gatequest_QR_Script1_48d7e0b6' }] },
    ],
    groups: [
      { owner: 'GateCon.SO', members: ['GateCon.SC'] },
      { owner: 'GateGuards', members: ['GateAlarm_00.SR', 'GateAlarm_01.SR', ...(patched ? ['GateAlarm_02.SR'] : [])] },
    ],
  });
}

/** The layer's script as it ships: SCRI v1, the source ending in one NUL byte. */
export function sampleLayerScript(): Uint8Array {
  return writeScri(SAMPLE_LAYER_SOURCE);
}

/**
 * The sample string tables (seed 004 "String tables"): `database\string\<language>\string.strdb`,
 * in HotChunk as the game ships them; two of the 14 language folders. Keys are StringHash of the
 * key names (the script's string literals name two of them).
 */
export const SAMPLE_STRING_TABLES = { enus: 'database\\string\\enus\\string.strdb', frfr: 'database\\string\\frfr\\string.strdb' } as const;
export const SAMPLE_STRINGS: Record<keyof typeof SAMPLE_STRING_TABLES, Record<string, string>> = {
  enus: {
    UI_1Sword_Starting_N: 'Urfael',
    UI_Sample_GateOpen: 'The gate opens.',
    UI_Sample_GateAlarm: 'Alarm at the gate!',
    UI_Sample_GateHint: 'Two relays raise the alarm.\nFind them both.',
  },
  frfr: {
    UI_1Sword_Starting_N: 'Urfael',
    UI_Sample_GateOpen: 'La porte s\u2019ouvre.',
    UI_Sample_GateAlarm: 'Alerte \u00e0 la porte\u00a0!',
    UI_Sample_GateHint: 'Deux relais donnent l\u2019alerte.\nTrouvez-les.',
  },
};

export function sampleStringTable(language: keyof typeof SAMPLE_STRING_TABLES): Uint8Array {
  return writeSkdb(Object.entries(SAMPLE_STRINGS[language]).map(([key, text]) => ({ hash: stringHash(key), text })));
}

export function sampleGame(): SampleFile[] {
  const files: SampleFile[] = [{ path: 'x64/default.archcfg', bytes: text(SAMPLE_CFG) }];

  // Base: the bulk of the data.
  const base = new LtarWriter();
  base.addBytes(
    'readme.txt',
    text(`
arch06 sample install
=====================
A synthetic game folder for trying arch06. Nothing here comes from the game.
config\\game.cfg ships in Base, Patch_01 and Patch_02: Patch_02 wins.
bundles\\characters\\orc_sample.bndl/.embb: a bundle whose manifest Patch_02 patches.
textures\\sample\\sample_banner_d.tex ships in Base; its .tex0 tier (512x512) in Patch_01.
textures\\sample\\sample_ground_array.texa: a texture array of three slices; its .texa0 tier in Patch_01.
characters\\sample\\sample_sword.mesh/.skel: a skinned sword (2 LODs, 2 material slots, 4 bones).
worlds\\retail\\sample\\sectionsandlayers\\fortgate.bndl/.embb: a world layer (registry + script); Patch_02 patches its registry.
database\\string\\enus and frfr\\string.strdb (in HotChunk): string tables in two languages.
`),
  );
  base.addBytes('config\\game.cfg', text('; Base copy\nDifficulty=Normal\nSubtitles=0\n'));
  base.addBytes('config\\input.cfg', text('; only in Base\nInvertY=0\n'));
  base.addBytes(
    'scripts\\common\\startup.scripts',
    text('-- Base copy: wins over the Game folder copy, because Game is consulted last\nlocal greeting = "hello from Base"\nreturn greeting\n'),
  );
  base.addBytes(
    'scripts\\ui\\banner.scripts',
    text(
      '-- Hover a texture path to see it\nlocal Banner = { Texture = "textures\\\\sample\\\\sample_banner_d.tex", Ground = "textures/sample/sample_ground_array.texa" }\nreturn Banner\n',
    ),
  );
  base.addBytes('scripts\\quests\\q_intro.scripts', text('local Quest = hmake QuestDef { Name = "Intro" }\nreturn Quest\n'));
  base.addBytes('bundles\\dlc\\dlc_main.txt', text('bundles\\dlc: a folder whose name is a prefix of bundles\\dlc4\n'));
  base.addBytes('bundles\\dlc4\\dlc4_main.txt', text('bundles\\dlc4 sorts before bundles\\dlc in the folder table\n'));
  base.addBytes('database\\string\\enus\\string.txt', text('UI_1Sword_Starting_N=Urfael\n'));
  base.add('data\\empty.bin', { storage: 'empty' });
  base.add('data\\big_stored.bin', { storage: 'chunked', bytes: patterned(200_000, 7) });
  // A bundle: a manifest mirroring its container; the container stored in small chunks.
  base.addBytes(
    `${SAMPLE_BUNDLE}.bndl`,
    writeBndl(
      'Presentation',
      orcMembers.map((m) => ({ path: m.path, size: m.bytes.length })),
    ),
  );
  base.add(`${SAMPLE_BUNDLE}.embb`, { storage: 'chunked', bytes: writeEmbb(orcMembers), chunkSize: 128 });
  base.addBytes(SAMPLE_TEXTURE, sampleTexture());
  base.addBytes(SAMPLE_TEXTURE_ARRAY, sampleTextureArray());
  base.addBytes(SAMPLE_MESH, sampleSwordMesh());
  base.addBytes(SAMPLE_SKELETON, sampleSwordSkeleton());
  for (let i = 0; i < 40; i++) base.addBytes(`worlds\\sample\\layer_${String(i).padStart(2, '0')}.txt`, text(`layer ${i}\n`));
  // The world layer: manifest and container (type empty, as the retail layers' manifests).
  const layerMembers = [
    { path: SAMPLE_LAYER_REGISTRY, bytes: sampleLayerRegistry() },
    { path: SAMPLE_LAYER_SCRIPT, bytes: sampleLayerScript() },
  ];
  base.addBytes(
    `${SAMPLE_LAYER}.bndl`,
    writeBndl(
      '',
      layerMembers.map((m) => ({ path: m.path, size: m.bytes.length })),
    ),
  );
  base.add(`${SAMPLE_LAYER}.embb`, { storage: 'chunked', bytes: writeEmbb(layerMembers), chunkSize: 1024 });
  files.push({ path: 'Base.arch06', bytes: base.toBytes() });

  // An empty archive: a 65-byte header and one empty root folder, like Patch_00_LC.
  files.push({ path: 'Patch_00_LC.arch06', bytes: new LtarWriter().toBytes() });

  const patch1Paths = ['config\\game.cfg', 'scripts\\quests\\q_intro.scripts', `${SAMPLE_TEXTURE}0`, `${SAMPLE_TEXTURE_ARRAY}0`];
  const patch1 = new LtarWriter();
  patch1.addBytes(PATH_INDEX_NAME, writePathIndex(patch1Paths));
  patch1.addBytes('config\\game.cfg', text('; Patch_01 copy\nDifficulty=Hard\nSubtitles=1\n'));
  patch1.addBytes(
    'scripts\\quests\\q_intro.scripts',
    text('-- Patch_01 fixes the intro\nlocal Quest = hmake QuestDef { Name = "Intro", Version = 2 }\nreturn Quest\n'),
  );
  patch1.addBytes(`${SAMPLE_TEXTURE}0`, sampleTextureTier0());
  patch1.addBytes(`${SAMPLE_TEXTURE_ARRAY}0`, sampleTextureArrayTier0());
  files.push({ path: 'Patch_01.arch06', bytes: patch1.toBytes() });

  // The path index lists a manifest whose container is in another archive (seed 004).
  const patch2Paths = ['config\\game.cfg', 'data\\patched.bin', `${SAMPLE_BUNDLE}.bndl`, `${ORC}\\banner.txt`, SAMPLE_LAYER_REGISTRY];
  const patch2 = new LtarWriter();
  patch2.addBytes(PATH_INDEX_NAME, writePathIndex(patch2Paths));
  patch2.addBytes('config\\game.cfg', text('; Patch_02 copy: this is the one the game loads\nDifficulty=Nemesis\nSubtitles=1\n'));
  // The patched manifest: the container's three members, one that ships loose here, one shipped nowhere.
  patch2.addBytes(
    `${SAMPLE_BUNDLE}.bndl`,
    writeBndl('Presentation', [
      ...orcMembers.map((m) => ({ path: m.path, size: m.bytes.length })),
      { path: `${ORC}\\banner.txt`, size: orcBanner.length },
      { path: `${ORC}\\voice.txt`, size: 64 },
    ]),
  );
  patch2.addBytes(`${ORC}\\banner.txt`, orcBanner);
  // The patch rule (seed 001): this standalone registry replaces the one in the layer's container.
  patch2.addBytes(SAMPLE_LAYER_REGISTRY, sampleLayerRegistry(true));
  patch2.add('data\\patched.bin', { storage: 'chunked', bytes: patterned(150_000, 11), chunkSize: 0x10000 });
  files.push({ path: 'Patch_02.arch06', bytes: patch2.toBytes() });

  const hot = new LtarWriter();
  hot.addBytes(PATH_INDEX_NAME, writePathIndex(['database\\string\\enus\\string.txt', SAMPLE_STRING_TABLES.enus, SAMPLE_STRING_TABLES.frfr]));
  hot.addBytes('database\\string\\enus\\string.txt', text('UI_1Sword_Starting_N=Urfael (HotChunk copy: above every patch)\n'));
  // The string tables ship in HotChunk (seed 004), one per language folder.
  hot.addBytes(SAMPLE_STRING_TABLES.enus, sampleStringTable('enus'));
  hot.addBytes(SAMPLE_STRING_TABLES.frfr, sampleStringTable('frfr'));
  files.push({ path: 'HotChunk.arch06', bytes: hot.toBytes() });

  // Present on disk, absent from the cfg: not mounted (like Blade.arch06 in the game).
  const blade = new LtarWriter();
  blade.addBytes('dlc\\blade.txt', text('Unlocked'));
  files.push({ path: 'Blade.arch06', bytes: blade.toBytes() });

  // The loose Game folder: the top cfg line, so consulted last.
  files.push({ path: 'Game/scripts/common/startup.scripts', bytes: text('-- Game folder copy: shadowed by Base, because Game is consulted last\n') });
  files.push({ path: 'Game/movies/intro.txt', bytes: text('Loose files such as the cinematic movies ship in Game\\.\n') });
  return files;
}
