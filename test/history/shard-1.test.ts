// Upstream's schema history, first half (see ./walk.ts).
import { describeHistoryShard } from "./walk.js";

describeHistoryShard(0, 2);
