// The seed's flow chart (seed/000_…txt, the mermaid `flowchart TD`) as data: nodes A–Q with their Chinese labels as
// written in the seed and an English translation, and the edges with their yes/no labels. The panel draws it; the
// engine walks each URI along it (flow-tracker.ts).

export type NodeId = 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H' | 'I' | 'J' | 'K' | 'L' | 'M' | 'N' | 'O' | 'P' | 'Q';

export interface FlowNode {
  id: NodeId;
  en: string;
  zh: string;
  /** A decision diamond (F, I, P). */
  decision: boolean;
  /** Reaching it means something went wrong (drawn red). */
  failure: boolean;
  /** Only ever reached by inference from what the traffic implies, never observed directly. */
  inferred: boolean;
}

export interface FlowEdge {
  index: number;
  from: NodeId;
  to: NodeId;
  /** The label on a decision's branch, in both languages. */
  label?: { en: string; zh: string; yes: boolean };
}

export const NODES: readonly FlowNode[] = [
  { id: 'A', zh: '客户端初始化会话', en: 'Client initializes the session', decision: false, failure: false, inferred: false },
  { id: 'B', zh: '协商 resources.subscribe 能力', en: 'Negotiate the resources.subscribe capability', decision: false, failure: false, inferred: false },
  { id: 'C', zh: '发送 resources/subscribe 订阅目标 URI', en: 'Send resources/subscribe for the target URI', decision: false, failure: false, inferred: false },
  { id: 'D', zh: '服务端记录会话订阅集合', en: "Server records the session's subscription set", decision: false, failure: false, inferred: false },
  { id: 'E', zh: '资源在服务端被修改', en: 'Resource is modified on the server', decision: false, failure: false, inferred: false },
  { id: 'F', zh: '服务端能否找到订阅该 URI 的活跃会话', en: 'Can the server find an active session subscribed to this URI?', decision: true, failure: false, inferred: false },
  { id: 'G', zh: '发送 notifications/resources/updated', en: 'Send notifications/resources/updated', decision: false, failure: false, inferred: false },
  { id: 'H', zh: '通知不发出 客户端无感知', en: 'No notification is sent; the client never knows', decision: false, failure: true, inferred: true },
  { id: 'I', zh: '通知是否到达客户端', en: 'Does the notification reach the client?', decision: true, failure: false, inferred: false },
  { id: 'J', zh: '客户端调用 resources/read', en: 'Client calls resources/read', decision: false, failure: false, inferred: false },
  { id: 'K', zh: '缓存保持旧值', en: 'The cache keeps the old value', decision: false, failure: true, inferred: true },
  { id: 'L', zh: '用新内容覆盖缓存', en: 'Overwrite the cache with the new content', decision: false, failure: false, inferred: false },
  { id: 'M', zh: '后续请求读到过期内容', en: 'Later requests read stale content', decision: false, failure: true, inferred: true },
  { id: 'N', zh: '连接断开 会话结束', en: 'Connection drops; the session ends', decision: false, failure: false, inferred: false },
  { id: 'O', zh: '客户端重连并重新初始化', en: 'Client reconnects and re-initializes', decision: false, failure: false, inferred: false },
  { id: 'P', zh: '是否重发 subscribe', en: 'Does it send subscribe again?', decision: true, failure: false, inferred: false },
  { id: 'Q', zh: '客户端以为仍在订阅 服务端已无记录', en: 'Client thinks it is still subscribed; the server has no record', decision: false, failure: true, inferred: true },
];

const E = (from: NodeId, to: NodeId, label?: FlowEdge['label']): Omit<FlowEdge, 'index'> => (label ? { from, to, label } : { from, to });

export const EDGES: readonly FlowEdge[] = [
  E('A', 'B'),
  E('B', 'C'),
  E('C', 'D'),
  E('D', 'E'),
  E('E', 'F'),
  // Not for an unsolicited update (the delivering session holds no subscription for the URI): that one reaches G by a
  // jump, F ⇢ G (engine/on-resources.ts), as this arrow's label is not what happened.
  E('F', 'G', { zh: '能', en: 'yes', yes: true }),
  E('F', 'H', { zh: '不能', en: 'no', yes: false }),
  E('G', 'I'),
  E('I', 'J', { zh: '到达', en: 'arrives', yes: true }),
  // Only for a notification that never arrived while a delivery channel broke (a missed-update infers it). One that
  // arrived and was not re-read (engine/flow-rules.ts), or never came while the channel stayed open or none was open
  // yet (findings/refresh.ts missedJumps), reaches K by a jump: this arrow's label is not what happened.
  E('I', 'K', { zh: '连接中断丢失', en: 'lost when the connection broke', yes: false }),
  E('J', 'L'),
  E('K', 'M'),
  E('L', 'N'),
  E('N', 'O'),
  E('O', 'P'),
  E('P', 'C', { zh: '是', en: 'yes', yes: true }),
  E('P', 'Q', { zh: '否', en: 'no', yes: false }),
  E('Q', 'M'),
].map((e, index) => ({ ...e, index }));

/** A node's index in NODES: the letters A–Q are consecutive. */
export function nodeCode(id: NodeId): number {
  return id.charCodeAt(0) - 65;
}

/** from × to → edge index, or -1. */
const EDGE_TABLE: Int16Array = (() => {
  const t = new Int16Array(NODES.length * NODES.length).fill(-1);
  for (const e of EDGES) t[nodeCode(e.from) * NODES.length + nodeCode(e.to)] = e.index;
  return t;
})();

export function edgeIndexByCode(from: number, to: number): number {
  return EDGE_TABLE[from * NODES.length + to]!;
}

/** The edge from → to, or -1 when the chart has none (the URI jumped). */
export function edgeIndex(from: NodeId, to: NodeId): number {
  return edgeIndexByCode(nodeCode(from), nodeCode(to));
}

export function nodeById(id: NodeId): FlowNode {
  return NODES[nodeCode(id)]!;
}
