/**
 * The viewer's own WebGL 2 renderer: draws the three.js scene graph this viewer builds, and
 * nothing else, so the webview does not carry three's WebGLRenderer (its shader library, shadow
 * maps, XR, environment maps: about half of the old bundle; bench/editorTabs.bench.ts reports the
 * bundle's size). What it draws:
 *
 * - `Mesh` with `MeshStandardMaterial` (or any material with `color`): lit by the scene's
 *   `HemisphereLight`s and `DirectionalLight`s with a Lambert term plus a weak specular highlight
 *   (the look of a rough, non-metal standard material; energy as three's: irradiance × colour / π),
 *   `emissive` added, `map` (sRGB or linear, mipmapped, repeat), vertex colours, double-sided with
 *   back faces lit from behind, `wireframe` as the triangles' edges;
 * - `LineSegments` / `Line` (`LineBasicMaterial`, vertex colours: the grid, axes, bounds, bones,
 *   normals and tangents helpers) and `Points` (`PointsMaterial`, size in CSS pixels);
 * - each material's `visible`, `transparent` + `opacity` (alpha blending), `depthTest`,
 *   `depthWrite`; objects in `renderOrder`, opaque before transparent, as three orders them.
 *
 * Colours are three's: linear working space in, sRGB out (the clear colour too, so the stage keeps
 * the theme's exact background). Buffers follow each attribute's and texture's `version`
 * (`needsUpdate`), and are freed on the geometry's or texture's `dispose`. The interface is the
 * part of WebGLRenderer the viewer used: `domElement`, `setPixelRatio`, `setSize`,
 * `setClearColor`, `capabilities.getMaxAnisotropy()`, `render(scene, camera)`.
 */
import {
  type BufferAttribute,
  type BufferGeometry,
  type Camera,
  type Color,
  type DirectionalLight,
  type HemisphereLight,
  type Material,
  Matrix3,
  type Object3D,
  type Scene,
  SRGBColorSpace,
  type Texture,
  Vector3,
} from 'three';

const VERTEX = `#version 300 es
in vec3 position;
in vec3 normal;
in vec2 uv;
in vec4 color;
uniform mat4 modelMatrix;
uniform mat4 viewProjection;
uniform mat3 normalMatrix;
uniform float pointSize;
out vec3 vNormal;
out vec3 vWorld;
out vec2 vUv;
out vec4 vColor;
void main() {
  vec4 world = modelMatrix * vec4(position, 1.0);
  vWorld = world.xyz;
  vNormal = normalMatrix * normal;
  vUv = uv;
  vColor = color;
  gl_PointSize = pointSize;
  gl_Position = viewProjection * world;
}`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec3 vNormal;
in vec3 vWorld;
in vec2 vUv;
in vec4 vColor;
uniform vec3 diffuse;
uniform vec3 emissive;
uniform float opacity;
uniform bool lit;
uniform bool useMap;
uniform bool useColor;
uniform sampler2D map;
uniform vec3 cameraPosition;
uniform vec3 hemiSky;
uniform vec3 hemiGround;
uniform vec3 hemiUp;
uniform int dirCount;
uniform vec3 dirDirection[4];
uniform vec3 dirColor[4];
out vec4 fragColor;
vec3 toSRGB(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c));
}
void main() {
  vec3 base = diffuse;
  if (useColor) base *= vColor.rgb;
  if (useMap) base *= texture(map, vUv).rgb;
  vec3 outColor = base;
  if (lit) {
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing) n = -n;
    vec3 v = normalize(cameraPosition - vWorld);
    vec3 irradiance = mix(hemiGround, hemiSky, 0.5 * dot(n, hemiUp) + 0.5);
    vec3 spec = vec3(0.0);
    for (int i = 0; i < 4; i++) {
      if (i >= dirCount) break;
      float nl = max(dot(n, dirDirection[i]), 0.0);
      irradiance += nl * dirColor[i];
      vec3 h = normalize(dirDirection[i] + v);
      spec += 0.04 * pow(max(dot(n, h), 0.0), 12.0) * nl * dirColor[i];
    }
    outColor = base * irradiance * 0.3183099 + spec + emissive;
  }
  fragColor = vec4(toSRGB(outColor), opacity);
}`;

/** Attribute locations, fixed for the one program. */
const LOC = { position: 0, normal: 1, uv: 2, color: 3 } as const;

interface Drawable extends Object3D {
  geometry: BufferGeometry;
  material: Material | Material[];
  isMesh?: boolean;
  isLine?: boolean;
  isLineSegments?: boolean;
  isPoints?: boolean;
}

/** The fields of the materials this viewer uses that the renderer reads. */
interface DrawnMaterial extends Material {
  color?: Color;
  emissive?: Color;
  map?: Texture | null;
  wireframe?: boolean;
  size?: number;
}

interface GpuBuffer {
  buffer: WebGLBuffer;
  version: number;
}

export class ViewerRenderer {
  readonly domElement: HTMLCanvasElement;
  readonly capabilities: { getMaxAnisotropy(): number };
  private readonly gl: WebGL2RenderingContext;
  private readonly program: WebGLProgram;
  private readonly uniforms = new Map<string, WebGLUniformLocation | null>();
  private readonly buffers = new WeakMap<BufferAttribute, GpuBuffer>();
  private readonly wireframes = new WeakMap<BufferGeometry, { index: Uint32Array; source: BufferAttribute | null; version: number }>();
  private readonly wireBuffers = new WeakMap<Uint32Array, WebGLBuffer>();
  private readonly textures = new WeakMap<Texture, { texture: WebGLTexture; version: number }>();
  private readonly watched = new WeakSet<object>();
  private readonly anisotropy: { ext: EXT_texture_filter_anisotropic | null; max: number };
  private pixelRatio = 1;
  private clear: [number, number, number, number] = [0, 0, 0, 1];

  constructor() {
    this.domElement = document.createElement('canvas');
    const gl = this.domElement.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true, alpha: false });
    if (!gl) throw new Error('WebGL 2 is not available (the browser refused a webgl2 context)');
    this.gl = gl;
    this.program = this.link();
    const ext = gl.getExtension('EXT_texture_filter_anisotropic');
    this.anisotropy = { ext, max: ext ? (gl.getParameter(ext.MAX_TEXTURE_MAX_ANISOTROPY_EXT) as number) : 1 };
    this.capabilities = { getMaxAnisotropy: () => this.anisotropy.max };
  }

  setPixelRatio(ratio: number): void {
    this.pixelRatio = ratio;
  }

  /** The drawing buffer for `width` × `height` CSS pixels (the canvas's CSS size is left to the page). */
  setSize(width: number, height: number, _updateStyle = false): void {
    this.domElement.width = Math.max(1, Math.floor(width * this.pixelRatio));
    this.domElement.height = Math.max(1, Math.floor(height * this.pixelRatio));
  }

  /** The background: a three.js colour (linear), cleared as sRGB like three's output. */
  setClearColor(color: Color, alpha = 1): void {
    const c = color.clone().convertLinearToSRGB();
    this.clear = [c.r, c.g, c.b, alpha];
  }

  render(scene: Scene, camera: Camera): void {
    const gl = this.gl;
    scene.updateMatrixWorld();
    if (camera.parent === null) camera.updateMatrixWorld();
    gl.viewport(0, 0, this.domElement.width, this.domElement.height);
    gl.clearColor(...this.clear);
    gl.depthMask(true);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.useProgram(this.program);

    // Lights, in world space.
    let sky = [0, 0, 0],
      ground = [0, 0, 0];
    const up = new Vector3(0, 1, 0);
    const dirs: number[] = [];
    const dirColors: number[] = [];
    const drawn: Drawable[] = [];
    const a = new Vector3(),
      b = new Vector3();
    scene.traverseVisible((o) => {
      const light = o as Partial<HemisphereLight & DirectionalLight>;
      if (light.isHemisphereLight) {
        const l = o as HemisphereLight;
        sky = [l.color.r * l.intensity, l.color.g * l.intensity, l.color.b * l.intensity];
        ground = [l.groundColor.r * l.intensity, l.groundColor.g * l.intensity, l.groundColor.b * l.intensity];
        up.setFromMatrixPosition(l.matrixWorld).normalize();
      } else if (light.isDirectionalLight && dirs.length < 12) {
        const l = o as DirectionalLight;
        a.setFromMatrixPosition(l.matrixWorld);
        b.setFromMatrixPosition(l.target.matrixWorld);
        const d = a.sub(b).normalize();
        dirs.push(d.x, d.y, d.z);
        dirColors.push(l.color.r * l.intensity, l.color.g * l.intensity, l.color.b * l.intensity);
      } else {
        const d = o as Drawable;
        if ((d.isMesh || d.isLine || d.isPoints) && d.geometry) drawn.push(d);
      }
    });
    gl.uniform3fv(this.u('hemiSky'), sky);
    gl.uniform3fv(this.u('hemiGround'), ground);
    gl.uniform3f(this.u('hemiUp'), up.x, up.y, up.z);
    gl.uniform1i(this.u('dirCount'), dirs.length / 3);
    if (dirs.length) {
      gl.uniform3fv(this.u('dirDirection[0]'), dirs);
      gl.uniform3fv(this.u('dirColor[0]'), dirColors);
    }
    const viewProjection = camera.projectionMatrix.clone().multiply(camera.matrixWorldInverse);
    gl.uniformMatrix4fv(this.u('viewProjection'), false, viewProjection.elements);
    a.setFromMatrixPosition(camera.matrixWorld);
    gl.uniform3f(this.u('cameraPosition'), a.x, a.y, a.z);
    gl.uniform1i(this.u('map'), 0);

    // Opaque first, then transparent; each by renderOrder, keeping scene order otherwise (as three).
    const order = drawn
      .map((o, i) => ({ o, i, m: (Array.isArray(o.material) ? o.material[0] : o.material) as DrawnMaterial | undefined }))
      .filter((x): x is { o: Drawable; i: number; m: DrawnMaterial } => x.m !== undefined && x.m.visible);
    order.sort((x, y) => Number(x.m.transparent) - Number(y.m.transparent) || x.o.renderOrder - y.o.renderOrder || x.i - y.i);
    const normalMatrix = new Matrix3();
    for (const { o, m } of order) {
      gl.uniformMatrix4fv(this.u('modelMatrix'), false, o.matrixWorld.elements);
      gl.uniformMatrix3fv(this.u('normalMatrix'), false, normalMatrix.getNormalMatrix(o.matrixWorld).elements);
      this.draw(o, m);
    }
  }

  private draw(o: Drawable, m: DrawnMaterial): void {
    const gl = this.gl;
    const g = o.geometry;
    const position = g.getAttribute('position') as BufferAttribute | undefined;
    if (!position || position.count === 0) return;
    this.watch(g);
    const mesh = o.isMesh === true;
    const c = m.color;
    gl.uniform3f(this.u('diffuse'), c?.r ?? 1, c?.g ?? 1, c?.b ?? 1);
    const e = mesh ? m.emissive : undefined;
    gl.uniform3f(this.u('emissive'), e?.r ?? 0, e?.g ?? 0, e?.b ?? 0);
    gl.uniform1f(this.u('opacity'), m.transparent ? m.opacity : 1);
    gl.uniform1i(this.u('lit'), mesh ? 1 : 0);
    gl.uniform1f(this.u('pointSize'), (m.size ?? 1) * this.pixelRatio);
    // Blending, depth and faces.
    if (m.transparent) {
      gl.enable(gl.BLEND);
      gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    } else gl.disable(gl.BLEND);
    if (m.depthTest) gl.enable(gl.DEPTH_TEST);
    else gl.disable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.depthMask(m.depthWrite);
    if (mesh && m.side === 0) {
      gl.enable(gl.CULL_FACE);
      gl.cullFace(gl.BACK);
    } else if (mesh && m.side === 1) {
      gl.enable(gl.CULL_FACE);
      gl.cullFace(gl.FRONT);
    } else gl.disable(gl.CULL_FACE);
    // Attributes: the ones the geometry has, constants for the rest.
    this.attribute(LOC.position, position);
    const normal = mesh ? (g.getAttribute('normal') as BufferAttribute | undefined) : undefined;
    if (normal) this.attribute(LOC.normal, normal);
    else {
      gl.disableVertexAttribArray(LOC.normal);
      gl.vertexAttrib3f(LOC.normal, 0, 0, 1);
    }
    const map = mesh && m.map ? m.map : null;
    const uv = map ? (g.getAttribute('uv') as BufferAttribute | undefined) : undefined;
    if (map && uv && this.bindTexture(map)) {
      this.attribute(LOC.uv, uv);
      gl.uniform1i(this.u('useMap'), 1);
    } else {
      gl.disableVertexAttribArray(LOC.uv);
      gl.vertexAttrib2f(LOC.uv, 0, 0);
      gl.uniform1i(this.u('useMap'), 0);
    }
    const color = m.vertexColors ? (g.getAttribute('color') as BufferAttribute | undefined) : undefined;
    if (color) this.attribute(LOC.color, color);
    else {
      gl.disableVertexAttribArray(LOC.color);
      gl.vertexAttrib4f(LOC.color, 1, 1, 1, 1);
    }
    gl.uniform1i(this.u('useColor'), color ? 1 : 0);
    // The draw.
    const index = g.getIndex();
    if (mesh && m.wireframe) {
      const edges = this.wireframe(g, index, position.count);
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, edges.buffer);
      gl.drawElements(gl.LINES, edges.count, gl.UNSIGNED_INT, 0);
      return;
    }
    const mode = mesh ? gl.TRIANGLES : o.isPoints ? gl.POINTS : o.isLineSegments ? gl.LINES : gl.LINE_STRIP;
    if (index) {
      const buffer = this.upload(index, gl.ELEMENT_ARRAY_BUFFER);
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, buffer);
      gl.drawElements(mode, index.count, index.array instanceof Uint32Array ? gl.UNSIGNED_INT : gl.UNSIGNED_SHORT, 0);
    } else gl.drawArrays(mode, 0, position.count);
  }

  /** Binds `attr` to location `loc`, uploading it when it is new or changed. */
  private attribute(loc: number, attr: BufferAttribute): void {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.upload(attr, gl.ARRAY_BUFFER));
    const array = attr.array;
    const type =
      array instanceof Float32Array
        ? gl.FLOAT
        : array instanceof Uint8Array
          ? gl.UNSIGNED_BYTE
          : array instanceof Uint16Array
            ? gl.UNSIGNED_SHORT
            : array instanceof Int16Array
              ? gl.SHORT
              : array instanceof Int8Array
                ? gl.BYTE
                : gl.FLOAT;
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, attr.itemSize, type, attr.normalized, 0, 0);
  }

  /** The GL buffer of `attr`, (re)uploaded when its version moved. */
  private upload(attr: BufferAttribute, target: number): WebGLBuffer {
    const gl = this.gl;
    let b = this.buffers.get(attr);
    if (!b) {
      b = { buffer: gl.createBuffer()!, version: -1 };
      this.buffers.set(attr, b);
    }
    if (b.version !== attr.version) {
      gl.bindBuffer(target, b.buffer);
      gl.bufferData(target, attr.array as ArrayBufferView, gl.STATIC_DRAW);
      b.version = attr.version;
    }
    return b.buffer;
  }

  /** The triangles' edges as a line index (each triangle's three edges), made once per index version. */
  private wireframe(g: BufferGeometry, index: BufferAttribute | null, count: number): { buffer: WebGLBuffer; count: number } {
    const gl = this.gl;
    let w = this.wireframes.get(g);
    if (!w || w.source !== index || (index && w.version !== index.version)) {
      const tri = index ? index.array : Uint32Array.from({ length: count }, (_, i) => i);
      const out = new Uint32Array(Math.floor(tri.length / 3) * 6);
      for (let t = 0, k = 0; t + 2 < tri.length; t += 3) {
        const p = tri[t]!,
          q = tri[t + 1]!,
          r = tri[t + 2]!;
        out[k++] = p;
        out[k++] = q;
        out[k++] = q;
        out[k++] = r;
        out[k++] = r;
        out[k++] = p;
      }
      if (w) {
        const old = this.wireBuffers.get(w.index);
        if (old) gl.deleteBuffer(old);
      }
      w = { index: out, source: index, version: index?.version ?? 0 };
      this.wireframes.set(g, w);
      const buffer = gl.createBuffer()!;
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, out, gl.STATIC_DRAW);
      this.wireBuffers.set(out, buffer);
    }
    return { buffer: this.wireBuffers.get(w.index)!, count: w.index.length };
  }

  /** Binds `t` to unit 0 (uploading RGBA8 pixels when new or changed); false when it has no pixels. */
  private bindTexture(t: Texture): boolean {
    const gl = this.gl;
    const image = t.image as { data?: ArrayBufferView; width?: number; height?: number } | undefined;
    if (!image?.data || !image.width || !image.height) return false;
    let entry = this.textures.get(t);
    if (!entry) {
      entry = { texture: gl.createTexture()!, version: -1 };
      this.textures.set(t, entry);
      t.addEventListener('dispose', () => {
        const e = this.textures.get(t);
        if (e) gl.deleteTexture(e.texture);
        this.textures.delete(t);
      });
    }
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, entry.texture);
    if (entry.version !== t.version) {
      const srgb = t.colorSpace === SRGBColorSpace;
      gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, t.flipY);
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
      gl.texImage2D(gl.TEXTURE_2D, 0, srgb ? gl.SRGB8_ALPHA8 : gl.RGBA8, image.width, image.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, image.data);
      gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
      const repeat = gl.REPEAT;
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, repeat);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, repeat);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, t.generateMipmaps ? gl.LINEAR_MIPMAP_LINEAR : gl.LINEAR);
      if (t.generateMipmaps) gl.generateMipmap(gl.TEXTURE_2D);
      if (this.anisotropy.ext && t.anisotropy > 1)
        gl.texParameterf(gl.TEXTURE_2D, this.anisotropy.ext.TEXTURE_MAX_ANISOTROPY_EXT, Math.min(t.anisotropy, this.anisotropy.max));
      entry.version = t.version;
    }
    return true;
  }

  /** Frees a geometry's buffers when it is disposed. */
  private watch(g: BufferGeometry): void {
    if (this.watched.has(g)) return;
    this.watched.add(g);
    g.addEventListener('dispose', () => {
      const gl = this.gl;
      for (const name of Object.keys(g.attributes)) {
        const attr = g.getAttribute(name) as BufferAttribute;
        const b = this.buffers.get(attr);
        if (b) gl.deleteBuffer(b.buffer);
        this.buffers.delete(attr);
      }
      const index = g.getIndex();
      const ib = index && this.buffers.get(index);
      if (ib) gl.deleteBuffer(ib.buffer);
      if (index) this.buffers.delete(index);
      const w = this.wireframes.get(g);
      const wb = w && this.wireBuffers.get(w.index);
      if (wb) gl.deleteBuffer(wb);
      this.wireframes.delete(g);
    });
  }

  private u(name: string): WebGLUniformLocation | null {
    let l = this.uniforms.get(name);
    if (l === undefined) {
      l = this.gl.getUniformLocation(this.program, name);
      this.uniforms.set(name, l);
    }
    return l;
  }

  private link(): WebGLProgram {
    const gl = this.gl;
    const shader = (type: number, source: string): WebGLShader => {
      const s = gl.createShader(type)!;
      gl.shaderSource(s, source);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS) && !gl.isContextLost())
        throw new Error(`the viewer's shader did not compile: ${gl.getShaderInfoLog(s)}`);
      return s;
    };
    const p = gl.createProgram()!;
    gl.attachShader(p, shader(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(p, shader(gl.FRAGMENT_SHADER, FRAGMENT));
    for (const [name, loc] of Object.entries(LOC)) gl.bindAttribLocation(p, loc, name);
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS) && !gl.isContextLost()) throw new Error(`the viewer's shaders did not link: ${gl.getProgramInfoLog(p)}`);
    return p;
  }
}
