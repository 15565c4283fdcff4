/**
 * Talking to the treasury assistant example as its chat page does (a message to its Chat Trigger), and reviewing
 * its payments as the reviewer does: reading the review message n8n sent into the chat and opening its Approve or
 * Decline link (n8n's signed resume URL). What happened is read back from n8n's public API.
 */
import type { ExampleWorkflow } from '../../../scripts/n8n/examples';
import { waitFor } from '../../support/waitFor';
import type { AiStack } from './aiStack';

interface Run {
	data?: Record<string, Array<Array<{ json: Record<string, unknown>; sendMessage?: unknown }>>>;
	error?: { message: string };
}
export interface ChatExecution {
	id: string;
	status: string;
	data: { resultData: { runData: Record<string, Run[]>; lastNodeExecuted?: string; error?: { message: string } } };
}

/** The message n8n's human review node put into the chat: its text and its buttons' links. */
export interface ReviewMessage {
	text: string;
	approve: string;
	decline: string;
}

const REVIEW = 'Approve payment';
const REPLY = 'Reply';

/** A reviewer opens a link in a browser; n8n ignores approval links opened by bots (link previews). */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

export function treasuryChat(stack: () => AiStack, workflow: (stack: AiStack) => ExampleWorkflow = (started) => started.treasury) {
	const chatUrl = () => {
		const trigger = workflow(stack()).nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger')!;
		return `${stack().n8n.url}/webhook/${String(trigger.webhookId)}/chat`;
	};

	async function execution(id: string): Promise<ChatExecution> {
		const response = await fetch(`${stack().n8n.url}/api/v1/executions/${id}?includeData=true`, { headers: { 'X-N8N-API-KEY': stack().apiKey } });
		if (!response.ok) throw new Error(`reading execution ${id}: HTTP ${response.status}`);
		return (await response.json()) as ChatExecution;
	}

	const runsOf = (run: ChatExecution, node: string) => run.data?.resultData?.runData?.[node] ?? [];
	const output = (run: Run) => Object.values(run.data ?? {})[0]?.[0]?.[0];

	return {
		execution,
		runsOf,
		output,

		/** Sends a chat message in a session; returns the id of the execution it started. */
		async say(sessionId: string, text: string): Promise<string> {
			const response = await fetch(chatUrl(), {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput: text }),
			});
			if (!response.ok) throw new Error(`chat message: HTTP ${response.status} ${await response.text()}`);
			return String(((await response.json()) as { executionId: string }).executionId);
		},

		/**
		 * Waits for the execution to wait on its `nth` review (1-based) and returns the message the chat shows. The chat
		 * shows what n8n's chat service reads (its getMessage): the last run of the node executed last; a review whose
		 * message sits in an earlier run is never shown, and the person sees only the typing dots.
		 */
		async review(id: string, nth = 1): Promise<ReviewMessage> {
			return await waitFor(
				`review ${nth} of execution ${id}, shown in the chat`,
				async () => {
					const run = await execution(id);
					const reviews = runsOf(run, REVIEW);
					const shownRuns = runsOf(run, run.data?.resultData?.lastNodeExecuted ?? '');
					const shown = shownRuns.length > 0 ? output(shownRuns[shownRuns.length - 1]) : undefined;
					const message =
						reviews.length === nth && run.status === 'waiting' && run.data.resultData.lastNodeExecuted === REVIEW
							? (shown?.sendMessage as { text: string; buttons: Array<{ text: string; link: string }> } | undefined)
							: undefined;
					if (!message) return undefined;
					const link = (label: RegExp) => message.buttons.find((button) => label.test(button.text))!.link;
					return { text: message.text, approve: link(/approve/i), decline: link(/decline/i) };
				},
				{ timeoutMs: 120_000, intervalMs: 500 },
			);
		},

		/** Opens a review link as the reviewer's browser does. */
		async open(link: string): Promise<void> {
			const response = await fetch(link, { headers: { 'user-agent': BROWSER } });
			if (!response.ok) throw new Error(`review link: HTTP ${response.status}`);
			await response.text();
		},

		/** Waits until the assistant answered in the chat (its Reply node ran); returns the answer and the execution. */
		async answer(id: string): Promise<{ text: string; run: ChatExecution }> {
			return await waitFor(
				`the assistant's answer in execution ${id}`,
				async () => {
					const run = await execution(id);
					if (run.data?.resultData?.error) throw new Error(`execution ${id} failed: ${run.data.resultData.error.message}`);
					const reply = runsOf(run, REPLY)[0];
					return reply ? { text: String(output(reply)?.sendMessage), run } : undefined;
				},
				{ timeoutMs: 120_000, intervalMs: 500 },
			);
		},

		/** The Send money tool's answers in an execution, one per run. */
		sendMoneyAnswers(run: ChatExecution): Array<Record<string, unknown>> {
			return runsOf(run, 'Send money').map((tool) => output(tool)?.json ?? {});
		},
	};
}
