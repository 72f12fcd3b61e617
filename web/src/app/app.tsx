import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { queryClient } from './query-client';

function Placeholder() {
  return (
    <main className="page">
      <h1>Classroom Monitor</h1>
      <p>Sign in to access the system</p>
    </main>
  );
}

function NotFound() {
  return (
    <main className="page">
      <div className="card">
        <h1>404 Page Not Found</h1>
      </div>
    </main>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Switch>
        <Route path="/" component={Placeholder} />
        <Route path="/buildings" component={Placeholder} />
        <Route component={NotFound} />
      </Switch>
    </QueryClientProvider>
  );
}
