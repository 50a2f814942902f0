// Upstream's schema history, second half (see ./walk.ts).
import { describeHistoryShard } from "./walk.js";

describeHistoryShard(1, 2);
