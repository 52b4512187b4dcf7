/** Small shared math for the engine's readers and models (no format knowledge). */
export { type Quaternion, multiplyQuaternions } from './quaternion';
