/**
 * The `provider-request` run event, declared here by declaration merging: a front end that calls a model provider
 * (the gateway) emits it with the exact JSON it sent, and telemetry measures it. Telemetry owns it because it defines
 * what is measured; the gateway already depends on telemetry (never the reverse).
 */
// The `search` and `describe` events telemetry records are declared in @tool-search/search.
export type { SearchEventResult } from '@tool-search/search';

declare module '@tool-search/kernel' {
  interface RunEventMap {
    /** What was sent to the model provider for this run (emitted by the gateway; measured by telemetry). */
    'provider-request': {
      readonly type: 'provider-request';
      readonly mode: string;
      /** The exact JSON body sent. */
      readonly body: string;
      readonly toolsBytes: number;
      readonly systemBytes: number;
      readonly requestBytes: number;
      /** Names of the tools the model saw in this request. */
      readonly toolNames?: readonly string[];
      /** The tools array as it appears in `body` and the system text, so consumers need not parse the body again. */
      readonly tools?: string;
      readonly system?: string;
    };
    /**
     * The run's next call of `toolId` was made by the provider's sandbox (programmatic tool calling, emitted by the
     * gateway just before the call): its `tool-call` entry carries `caller`.
     */
    'tool-caller': {
      readonly type: 'tool-caller';
      readonly toolId: string;
      readonly caller: 'programmatic';
    };
  }
}
