import { lane } from '../lane.js';

lane(6);
