import type { EventRecordBodyOf } from '@soong-agent/protocol/internal';

/**
 * The ids every record of one hook run carries (spec §5): the hook's id and event from the
 * protocol's `hook_*` schemas, and the tool call's id on tool events. The engine, the worker pool
 * and the hook-run decision build their records without them and add them in one place.
 */
export type HookRecordIds = Pick<EventRecordBodyOf<'hook_started'>, 'hook_id' | 'event'> & {
  call_id?: string;
};

/** A record body without the {@link HookRecordIds} the engine adds. */
export type WithoutHookRecordIds<T> = Omit<T, keyof HookRecordIds>;
