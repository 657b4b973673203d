import { TOOL_CALL_EVENTS } from '@soong-agent/matcher';
import { TOOL_EVENTS } from '@soong-agent/protocol';
import { describe, expect, it } from 'vitest';

// The matcher may not depend on protocol (SPEC §0), so it keeps its own list of the events that
// carry a tool call. Config depends on both: this is where the two lists are held equal.
describe('TOOL_CALL_EVENTS', () => {
  it('lists exactly the tool events of the protocol when compared', () => {
    expect([...TOOL_CALL_EVENTS].sort()).toEqual([...TOOL_EVENTS].sort());
  });
});
